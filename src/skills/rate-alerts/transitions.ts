import type { Direction } from "./constants.ts";

export type Side = "above" | "below" | "at";

/** What an alert remembers between evaluations. */
export interface AlertState {
  direction: Direction;
  threshold: number;
  cooldownSeconds: number | null;
  lastState: Side | null;
  firing: boolean;
  lastFiredAt: number | null;
}

export interface Transition {
  /** The event this evaluation raises, if any. */
  event: "alert.triggered" | "alert.resolved" | null;
  side: Side;
  firing: boolean;
}

export const sideOf = (value: number, threshold: number): Side =>
  value > threshold ? "above" : value < threshold ? "below" : "at";

const holds = (direction: "ABOVE" | "BELOW", side: Side) =>
  direction === "ABOVE" ? side === "above" : side === "below";

/**
 * One evaluation's outcome. ABOVE / BELOW fire when the condition starts to hold and resolve when it
 * stops; CROSSES fires whenever the figure is on the other side of the threshold than last time (a
 * value exactly at the threshold is on neither side). A trigger inside the cooldown is held back, and
 * the alert stays not firing, so it fires on the first evaluation after the cooldown if still true.
 */
export function transition(state: AlertState, value: number, now: number): Transition {
  const side = sideOf(value, state.threshold);
  const coolingDown =
    state.lastFiredAt !== null &&
    state.cooldownSeconds !== null &&
    now < state.lastFiredAt + state.cooldownSeconds * 1000;
  if (state.direction === "CROSSES") {
    const previous = state.lastState;
    const crossed = previous !== null && previous !== "at" && side !== "at" && side !== previous;
    const keptSide = side === "at" && previous !== null ? previous : side; // "at" does not reset the side
    return { event: crossed && !coolingDown ? "alert.triggered" : null, side: keptSide, firing: false };
  }
  const holdsNow = holds(state.direction, side);
  if (holdsNow && !state.firing)
    return coolingDown ? { event: null, side, firing: false } : { event: "alert.triggered", side, firing: true };
  if (!holdsNow && state.firing) return { event: "alert.resolved", side, firing: false };
  return { event: null, side, firing: state.firing };
}
