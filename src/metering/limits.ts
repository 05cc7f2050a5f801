import { TIERS, isTier, type Tier } from "../access/tiers.ts";

export interface TierLimits {
  /** Calls per key per sliding minute. */
  perMinute: number;
  /** Answered calls per account per calendar month (UTC). */
  perMonth: number;
}

export type LimitsTable = Readonly<Record<Tier, Readonly<TierLimits>>>;

/** docs/api.md (Limits): the table an operator gets unless WAYBILL_LIMITS or --limits overrides it. */
export const DEFAULT_LIMITS: LimitsTable = Object.freeze({
  explorer: Object.freeze({ perMinute: 3, perMonth: 25 }),
  starter: Object.freeze({ perMinute: 20, perMonth: 2_000 }),
  professional: Object.freeze({ perMinute: 60, perMonth: 10_000 }),
  enterprise: Object.freeze({ perMinute: 200, perMonth: 50_000 }),
});

/** An override the operator got wrong; the message is one line, meant to be printed as is. */
export class LimitsError extends Error {
  override readonly name = "LimitsError";
}

const FIELDS = { per_minute: "perMinute", per_month: "perMonth" } as const satisfies Record<string, keyof TierLimits>;
type OverrideField = keyof typeof FIELDS;

function isOverrideField(name: string): name is OverrideField {
  return Object.hasOwn(FIELDS, name);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Read an override such as `{"enterprise":{"per_minute":1000,"per_month":500000}}` and merge it,
 * field by field, over `base`. Unknown tiers or fields and anything but a positive integer throw a
 * LimitsError naming the offending path.
 */
export function parseLimits(json: string, base: LimitsTable = DEFAULT_LIMITS): LimitsTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new LimitsError(`limits are not valid JSON (${(error as Error).message}).`);
  }
  if (!isPlainObject(parsed)) {
    throw new LimitsError(
      `limits must be a JSON object keyed by tier, e.g. {"enterprise":{"per_minute":1000,"per_month":500000}}.`,
    );
  }

  const merged: Record<Tier, TierLimits> = {
    explorer: { ...base.explorer },
    starter: { ...base.starter },
    professional: { ...base.professional },
    enterprise: { ...base.enterprise },
  };
  for (const [tier, override] of Object.entries(parsed)) {
    if (!isTier(tier)) throw new LimitsError(`unknown tier "${tier}" in limits (tiers: ${TIERS.join(", ")}).`);
    if (!isPlainObject(override)) {
      throw new LimitsError(`limits.${tier} must be an object with per_minute and/or per_month.`);
    }
    for (const [field, value] of Object.entries(override)) {
      if (!isOverrideField(field)) {
        throw new LimitsError(
          `unknown field "${field}" in limits.${tier} (fields: ${Object.keys(FIELDS).join(", ")}).`,
        );
      }
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
        throw new LimitsError(`limits.${tier}.${field} must be a positive integer, not ${JSON.stringify(value)}.`);
      }
      merged[tier][FIELDS[field]] = value;
    }
  }
  return Object.freeze(merged);
}
