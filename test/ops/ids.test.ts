import { expect, test } from "bun:test";
import { decodeTime, isValid } from "ulid";
import { monotonicUlids, newId } from "../../src/ids.ts";

test("ULIDs of their time, strictly increasing within a millisecond and when the clock steps back", () => {
  const next = monotonicUlids();
  const t = Date.parse("2026-11-23T05:00:00Z");
  const ulids = [next(t), next(t), next(t), next(t - 5), next(t + 1), next(t + 1)];
  for (const id of ulids) expect(isValid(id)).toBe(true);
  for (let i = 1; i < ulids.length; i++) expect(ulids[i]! > ulids[i - 1]!).toBe(true);
  expect(ulids.map(decodeTime)).toEqual([t, t, t, t, t + 1, t + 1]);
  // A new millisecond draws a new random part rather than counting on from the last one.
  expect(ulids[4]!.slice(10)).not.toBe(ulids[3]!.slice(10));
});

test("ids carry their prefix", () => {
  expect(newId("rcpt")).toMatch(/^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/);
});

test("adding one to the random part carries from its low half into its high half", () => {
  const draws = [7, 2 ** 40 - 2]; // high half, then low half: two below the carry
  const next = monotonicUlids(() => draws.shift()!);
  const t = Date.parse("2026-11-23T05:00:00Z");
  const ulids = [next(t), next(t), next(t), next(t)];
  for (const id of ulids) expect(isValid(id)).toBe(true);
  for (let i = 1; i < ulids.length; i++) expect(ulids[i]! > ulids[i - 1]!).toBe(true);
  expect(ulids.map((id) => id.slice(10))).toEqual([
    "00000007ZZZZZZZY",
    "00000007ZZZZZZZZ",
    "0000000800000000",
    "0000000800000001",
  ]);
});
