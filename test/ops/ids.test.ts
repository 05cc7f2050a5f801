import { expect, test } from "bun:test";
import { decodeTime, isValid } from "ulid";
import { newId } from "../../src/ids.ts";

test("ids of their time, strictly increasing within a millisecond and when the clock steps back", () => {
  const t = 2 ** 47; // later than any id this process made before, whatever clock other tests in it set
  const ids = [newId("req", t), newId("req", t), newId("req", t), newId("req", t - 5), newId("req", t + 1)];
  const ulids = ids.map((id) => id.slice("req_".length));
  for (const id of ulids) expect(isValid(id)).toBe(true);
  expect(ulids).toEqual([...ulids].sort());
  expect(new Set(ulids).size).toBe(ulids.length);
  expect(ulids.map(decodeTime)).toEqual([t, t, t, t, t + 1]);
});

test("ids carry their prefix", () => {
  expect(newId("rcpt")).toMatch(/^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/);
});
