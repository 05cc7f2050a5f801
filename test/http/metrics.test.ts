import { expect, test } from "bun:test";
import { testInstance } from "../support/instance.ts";

test("/metrics counts group-commit transactions and the writes they carried", async () => {
  const instance = await testInstance();
  const { key } = await instance.accountWithKey("enterprise");
  const answers = await Promise.all(
    Array.from({ length: 5 }, () =>
      instance.call("/v1/fuel/surcharge", { method: "POST", key, json: { region: "NATIONAL" } }).then((r) => r.status),
    ),
  );
  expect(answers).toEqual([200, 200, 200, 200, 200]);
  const metrics = await (await instance.call("/metrics")).text();
  const batches = Number(/^waybill_group_commit_batch_writes_count (\d+)$/m.exec(metrics)?.[1]);
  expect(metrics).toMatch(/^waybill_group_commit_batch_writes_sum 5$/m);
  expect(batches).toBeGreaterThanOrEqual(1);
  expect(batches).toBeLessThanOrEqual(5);
  await instance.stop();
});

test("/metrics shows where commit time went, per stage, and how late the event loop ran between scrapes", async () => {
  const instance = await testInstance();
  const { key } = await instance.accountWithKey("enterprise");
  await Promise.all(
    Array.from({ length: 3 }, () =>
      instance.call("/v1/fuel/surcharge", { method: "POST", key, json: { region: "NATIONAL" } }),
    ),
  );
  await (await instance.call("/metrics")).text(); // the first scrape starts the event-loop monitor
  await new Promise((resolve) => setTimeout(resolve, 30));
  const busyUntil = performance.now() + 50;
  while (performance.now() < busyUntil); // a 50 ms stall of the loop
  await new Promise((resolve) => setTimeout(resolve, 30));
  const metrics = await (await instance.call("/metrics")).text();
  expect(metrics).toMatch(/^waybill_group_commit_stage_seconds_count\{stage="queued"\} 3$/m);
  const batches = Number(/^waybill_group_commit_stage_seconds_count\{stage="commit"\} (\d+)$/m.exec(metrics)?.[1]);
  expect(batches).toBeGreaterThanOrEqual(1);
  for (const stage of ["writes", "sync"])
    expect(metrics).toContain(`waybill_group_commit_stage_seconds_count{stage="${stage}"} ${batches}`);
  const longest = Number(/^waybill_event_loop_delay_max_seconds (\S+)$/m.exec(metrics)?.[1]);
  expect(longest).toBeGreaterThan(0.03);
  await instance.stop();
});
