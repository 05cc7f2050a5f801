import { ApiError, errors } from "../errors.ts";

/** The market figure beside a priced lane's cost, where one exists (USDA AMS for reefer produce lanes). */
export interface MarketFigure {
  source: string;
  observation_date: string;
  low_per_load: number;
  high_per_load: number;
  spread: number;
}

export interface PricedLane {
  rate_per_mile: number;
  total_cost: number;
  miles: number;
  confidence: string;
  market?: MarketFigure;
  receipt_id: string;
}

export interface RefusedLane {
  error: string;
  message: string;
  suggestions?: string[];
}

/** What became of one row of a sheet: priced with its own receipt, or refused with the error table's code. */
export type LaneOutcome = PricedLane | RefusedLane;

export const isPriced = (outcome: LaneOutcome): outcome is PricedLane => "receipt_id" in outcome;

/** The figures of a rate-lookup answer a priced sheet carries. */
export function pricedLane(answer: Record<string, unknown>, receiptId: string): PricedLane {
  const anchor = answer.market_anchor as (MarketFigure & { midpoint_per_load: number }) | undefined;
  return {
    rate_per_mile: answer.rate_per_mile as number,
    total_cost: answer.total_cost as number,
    miles: answer.miles as number,
    confidence: (answer.confidence as { level: string }).level,
    ...(anchor && {
      market: {
        source: anchor.source,
        observation_date: anchor.observation_date,
        low_per_load: anchor.low_per_load,
        high_per_load: anchor.high_per_load,
        spread: anchor.spread,
      },
    }),
    receipt_id: receiptId,
  };
}

/** A refusal as a row keeps it; anything not in the error table is an internal error, and says nothing more. */
export function refusedLane(error: unknown): RefusedLane {
  const apiError = error instanceof ApiError ? error : errors.internal();
  const suggestions = apiError.extra.suggestions ?? apiError.extra.candidates;
  const details = apiError.extra.details as { field: string; problem: string }[] | undefined;
  return {
    error: apiError.errorCode,
    message: details?.length
      ? details.map((detail) => `${detail.field} ${detail.problem}`).join("; ")
      : apiError.message,
    ...(Array.isArray(suggestions) && suggestions.length > 0 && { suggestions: suggestions as string[] }),
  };
}
