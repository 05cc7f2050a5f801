import { expect, test } from "bun:test";
import { decodeTime, isValid } from "ulid";
import { newId } from "../../src/ids.ts";

const ulidOf = (id: string) => id.slice(id.indexOf("_") + 1);

test("ids are prefixed ULIDs of their time, strictly increasing within a millisecond and when the clock steps back", () => {
  const t = Date.parse("2026-11-23T05:00:00Z");
  const ids = [newId("req", t), newId("rcpt", t), newId("req", t), newId("req", t - 5), newId("req", t + 1), newId("req", t + 1)];
  expect(ids[1]!.startsWith("rcpt_")).toBe(true);
  const ulids = ids.map(ulidOf);
  for (const id of ulids) expect(isValid(id)).toBe(true);
  for (let i = 1; i < ulids.length; i++) expect(ulids[i]! > ulids[i - 1]!).toBe(true);
  expect(ulids.map(decodeTime)).toEqual([t, t, t, t, t + 1, t + 1]);
  // A new millisecond draws a new random part rather than counting on from the last one.
  expect(ulids[4]!.slice(10)).not.toBe(ulids[3]!.slice(10));
});
