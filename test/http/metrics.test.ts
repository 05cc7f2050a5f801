import { expect, test } from "bun:test";
import { testInstance } from "../support/instance.ts";

test("/metrics counts group-commit transactions and the writes they carried", async () => {
  const instance = await testInstance();
  const { key } = await instance.accountWithKey("enterprise");
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => instance.call("/v1/fuel/surcharge", { method: "POST", key, json: { region: "NATIONAL" } }).then((r) => r.status)),
  );
  expect(answers).toEqual([200, 200, 200, 200, 200]);
  const metrics = await (await instance.call("/metrics")).text();
  const batches = Number(/^waybill_group_commit_batch_writes_count (\d+)$/m.exec(metrics)?.[1]);
  expect(metrics).toMatch(/^waybill_group_commit_batch_writes_sum 5$/m);
  expect(batches).toBeGreaterThanOrEqual(1);
  expect(batches).toBeLessThanOrEqual(5);
  await instance.stop();
});
