import type { Principal } from "../../access/principal.ts";
import type { PipelineDeps } from "../../pipeline/run-skill.ts";
import type { AnySkill } from "../../skills/types.ts";

/** One month of the lane over time: what rate-lookup answered as of that date. */
export interface HistoryPoint {
  as_of: string;
  rate_per_mile: number;
  total_cost: number;
}

export const HISTORY_MONTHS = 13;

/** The same day `months` earlier (the last day of a shorter month when that day does not exist), YYYY-MM-DD. */
export function monthsBefore(date: string, months: number): string {
  const [year = 0, month = 1, day = 1] = date.split("-").map(Number);
  const first = new Date(Date.UTC(year, month - 1 - months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(day, lastDay));
  return first.toISOString().slice(0, 10);
}

/**
 * The lane's cost basis over the 13 months up to `asOf`: the same input replayed as of each month,
 * on the data known now (an audit's replay, not a new call: it is part of the page's one metered
 * rate-lookup). A month before the data starts is left out.
 */
export async function laneHistory(
  deps: PipelineDeps,
  rateLookup: AnySkill,
  caller: Principal,
  input: Record<string, unknown>,
  asOf: string,
): Promise<HistoryPoint[]> {
  const now = deps.clock.now();
  const points: HistoryPoint[] = [];
  for (let back = HISTORY_MONTHS - 1; back >= 0; back--) {
    const date = monthsBefore(asOf, back);
    try {
      const result = await rateLookup.handler?.(
        { ...input, as_of: date },
        { data: deps.reference.view(date, now), caller, instance: deps },
      );
      const answer = result?.answer as { rate_per_mile: number; total_cost: number } | undefined;
      if (answer) points.push({ as_of: date, rate_per_mile: answer.rate_per_mile, total_cost: answer.total_cost });
    } catch {
      // Before the data starts (or a figure missing that month): no point for that month.
    }
  }
  return points;
}
