import { describe, expect, test } from "bun:test";
import { transition, type AlertState } from "../../../src/skills/rate-alerts/transitions.ts";

const base: AlertState = {
  direction: "ABOVE",
  threshold: 4,
  cooldownSeconds: null,
  lastState: "below",
  firing: false,
  lastFiredAt: null,
};

/** Feed values one after another, carrying state like evaluate.ts does; returns the events raised. */
function run(state: AlertState, values: number[], stepMs = 60_000): (string | null)[] {
  let current = { ...state };
  let now = 0;
  return values.map((value) => {
    now += stepMs;
    const step = transition(current, value, now);
    current = {
      ...current,
      lastState: step.side,
      firing: step.firing,
      lastFiredAt: step.event === "alert.triggered" ? now : current.lastFiredAt,
    };
    return step.event;
  });
}

describe("alert transitions", () => {
  test("ABOVE fires once when the value goes above, resolves when it comes back", () => {
    expect(run(base, [3.9, 4.1, 4.3, 4.0, 3.8, 4.2])).toEqual([
      null,
      "alert.triggered",
      null,
      "alert.resolved",
      null,
      "alert.triggered",
    ]);
  });

  test("BELOW is the mirror image", () => {
    expect(run({ ...base, direction: "BELOW", lastState: "above" }, [4.1, 3.9, 3.5, 4.5])).toEqual([
      null,
      "alert.triggered",
      null,
      "alert.resolved",
    ]);
  });

  test("CROSSES fires on every change of side and never resolves; the threshold itself is no side", () => {
    expect(run({ ...base, direction: "CROSSES" }, [3.9, 4.0, 4.1, 4.2, 3.9, 4.0, 3.8])).toEqual([
      null,
      null,
      "alert.triggered",
      null,
      "alert.triggered",
      null,
      null,
    ]);
  });

  test("CROSSES needs a previous side: the first evaluation only records it", () => {
    expect(run({ ...base, direction: "CROSSES", lastState: null }, [5, 3])).toEqual([null, "alert.triggered"]);
  });

  test("a cooldown holds a trigger back; the alert fires after it if the condition still holds", () => {
    const cooled = { ...base, cooldownSeconds: 150 };
    // fires at t=1 min, resolves at 2, would fire at 3 (inside 150 s) and does at 4
    expect(run(cooled, [4.5, 3.5, 4.5, 4.5])).toEqual(["alert.triggered", "alert.resolved", null, "alert.triggered"]);
  });
});
