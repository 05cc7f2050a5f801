import type { Static } from "@sinclair/typebox";
import { errors, type FieldProblem } from "../../errors.ts";
import { DIESEL_REGION_NAMES } from "../../reference/geo/regions.ts";
import { FUEL_SURCHARGE_MODEL } from "./constants.ts";
import type { fuelSurchargeInput } from "./schema.ts";

type Input = Static<typeof fuelSurchargeInput>;

const { maxBaselinePerGallon, maxMpgDivisor, maxMiles } = FUEL_SURCHARGE_MODEL.limits.value;

function rangeProblem(
  field: string,
  value: number | undefined,
  bounds: { above: number; atLeast?: boolean; atMost: number },
): FieldProblem | undefined {
  if (value === undefined) return undefined;
  const lowOk = bounds.atLeast ? value >= bounds.above : value > bounds.above;
  if (lowOk && value <= bounds.atMost) return undefined;
  const low = bounds.atLeast ? `at least ${bounds.above}` : `greater than ${bounds.above}`;
  return { field, problem: `must be ${low} and at most ${bounds.atMost}; got ${value}` };
}

/**
 * The rules the schema cannot say: exactly one of origin and region, numbers in range, and the
 * fields PERCENTAGE needs. Every problem is reported at once.
 */
export function refuseInvalidInput(input: Input): void {
  const problems: FieldProblem[] = [];
  if (input.origin !== undefined && input.region !== undefined) {
    problems.push({ field: "region", problem: "give either origin or region, not both" });
  } else if (input.origin === undefined && input.region === undefined) {
    problems.push({
      field: "region",
      problem: `give origin ("City, ST" or ZIP) or region (one of ${DIESEL_REGION_NAMES.join(", ")})`,
      allowed: DIESEL_REGION_NAMES,
    });
  }
  const ranges = [
    rangeProblem("miles", input.miles, { above: 0, atMost: maxMiles }),
    rangeProblem("base_freight_charge", input.base_freight_charge, { above: 0, atMost: Number.MAX_SAFE_INTEGER }),
    rangeProblem("baseline", input.baseline, { above: 0, atLeast: true, atMost: maxBaselinePerGallon }),
    rangeProblem("mpg_divisor", input.mpg_divisor, { above: 0, atMost: maxMpgDivisor }),
  ];
  problems.push(...ranges.filter((problem) => problem !== undefined));
  if (input.formula === "PERCENTAGE") {
    for (const field of ["miles", "base_freight_charge"] as const) {
      if (input[field] === undefined)
        problems.push({
          field,
          problem: "is required with formula PERCENTAGE (surcharge for the miles over the base charge)",
        });
    }
  } else if (input.base_freight_charge !== undefined) {
    problems.push({ field: "base_freight_charge", problem: "is only used with formula PERCENTAGE" });
  }
  if (problems.length > 0) throw errors.invalidRequest(problems);
}
