import { describe, expect, test } from "bun:test";
import { monthOf, monthRange } from "../../src/metering/calendar.ts";
import { utcDateOf } from "../../src/dates.ts";

const at = (iso: string) => Date.parse(iso);

describe("calendar months in UTC", () => {
  test.each([
    ["2026-01-31T23:59:59.999Z", "2026-01", "2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z"],
    ["2026-02-01T00:00:00.000Z", "2026-02", "2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
    ["2028-02-29T12:00:00.000Z", "2028-02", "2028-02-01T00:00:00.000Z", "2028-03-01T00:00:00.000Z"],
    ["2026-12-31T23:59:59.999Z", "2026-12", "2026-12-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"],
  ])("%s is in %s, [%s, %s)", (instant, month, start, end) => {
    expect(monthOf(at(instant))).toBe(month as ReturnType<typeof monthOf>);
    expect(monthRange(at(instant))).toEqual({
      month: month as ReturnType<typeof monthOf>,
      start: at(start),
      end: at(end),
    });
  });

  test("month lengths come from the calendar: 31, 28, 29 and 30 days", () => {
    const days = (iso: string) => {
      const { start, end } = monthRange(at(iso));
      return (end - start) / 86_400_000;
    };
    expect([
      days("2026-01-15T00:00:00Z"),
      days("2026-02-15T00:00:00Z"),
      days("2028-02-15T00:00:00Z"),
      days("2026-04-15T00:00:00Z"),
    ]).toEqual([31, 28, 29, 30]);
  });

  test("a day is the UTC date", () => {
    expect(utcDateOf(at("2026-03-01T00:30:00Z"))).toBe("2026-03-01");
    expect(utcDateOf(at("2026-02-28T23:59:59.999Z"))).toBe("2026-02-28");
  });

  test("the day and month kept from the last call are never stale, forwards or backwards across their edges", () => {
    const instants = [
      "2026-01-31T23:59:59.999Z",
      "2026-02-01T00:00:00.000Z",
      "2026-01-31T12:00:00.000Z",
      "2026-02-28T23:59:59.999Z",
      "2026-03-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "1970-01-01T00:00:00.000Z",
      "0050-06-15T10:00:00.000Z",
      "2026-03-01T00:00:00.001Z",
    ].map(at);
    for (const instant of instants) {
      const iso = new Date(instant).toISOString();
      expect(utcDateOf(instant)).toBe(iso.slice(0, 10));
      expect(monthOf(instant)).toBe(iso.slice(0, 7) as ReturnType<typeof monthOf>);
    }
    expect(() => monthOf(Number.NaN)).toThrow(RangeError);
    expect(() => utcDateOf(Number.NaN)).toThrow(RangeError);
  });
});
