import { round } from "../kit.ts";
import { fuelSurchargePerMile, type FuelSurchargeTerms } from "../rate-lookup/index.ts";

export interface SurchargeQuote {
  perMile: number;
  /** perMile x miles, when miles are given. */
  total?: number;
  /** total / base charge x 100, when miles and a base charge are given. */
  percent?: number;
  /** The formula with the numbers written in, rounded as answered. */
  calculation: string;
}

/**
 * The ATA/DOE per-mile surcharge, and from it the total for a trip and its share of the base charge.
 * Totals and percentages come from the unrounded per-mile figure; only the answer is rounded.
 */
export function quoteSurcharge(
  dieselPerGallon: number,
  terms: FuelSurchargeTerms,
  trip: { miles?: number; baseFreightCharge?: number },
): SurchargeQuote {
  const perMile = fuelSurchargePerMile(dieselPerGallon, terms);
  const { baseFreightCharge } = trip;
  const total = trip.miles === undefined ? undefined : perMile * trip.miles;
  const percent =
    total === undefined || baseFreightCharge === undefined ? undefined : (total / baseFreightCharge) * 100;

  const steps = [
    `max(0, (${dieselPerGallon} - ${terms.baseDieselPerGallon}) / ${terms.mpgDivisor}) = ${round(perMile, 4)} USD/mile`,
  ];
  if (total !== undefined) steps.push(`x ${trip.miles} miles = ${total.toFixed(2)} USD`);
  if (percent !== undefined && baseFreightCharge !== undefined)
    steps.push(`/ ${baseFreightCharge.toFixed(2)} USD base freight charge = ${round(percent, 2)} %`);

  return {
    perMile: round(perMile, 4),
    ...(total !== undefined && { total: round(total, 2) }),
    ...(percent !== undefined && { percent: round(percent, 2) }),
    calculation: steps.join("; "),
  };
}
