import { expect, test } from "bun:test";
import { NATIONAL_TRUCK_DRIVER_WAGE_SERIES } from "../../../src/reference/series-ids.ts";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import { costBasis } from "../../../src/skills/rate-lookup/model.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";

/**
 * ATRI's average marginal cost per mile (fuel, driver wages and benefits, equipment and overhead) for
 * a year should be reproduced by the model's operating-cost part (no margin, no surcharge, dry van
 * FTL) when it is fed that year's average EIA U.S. diesel price and the national OEWS wage known when
 * the edition came out. The equipment line is ATRI's own, so this checks the fuel and labor conversions.
 */
const { data } = snapshotReferenceData();

test.each(RATE_MODEL.atriEditions.value.filter((e) => e.dataYear >= 2022))("ATRI $dataYear: $totalPerMile per mile", (atri) => {
  const weeks = data.view(`${atri.dataYear}-12-31`, LOADED_AT).history("EMD_EPD2D_PTE_NUS_DPG", `${atri.dataYear}-01-01`);
  const diesel = weeks.reduce((sum, week) => sum + week.value, 0) / weeks.length;
  const wage = data.view(atri.publishedOn, LOADED_AT).latest(NATIONAL_TRUCK_DRIVER_WAGE_SERIES)!.value;
  const cost = costBasis({
    equipment: "DRY_VAN",
    mode: "FTL",
    dieselPerGallon: diesel,
    offRoadDieselPerGallon: diesel,
    driverHourlyWage: wage,
    atri,
    includeFuelSurcharge: false,
  });
  console.log(
    `ATRI ${atri.dataYear}: diesel ${diesel.toFixed(3)}, wage ${wage} -> model ${cost.operatingCostPerMile.toFixed(3)} $/mi ` +
      `(fuel ${cost.breakdown.fuel.toFixed(3)}, labor ${cost.breakdown.labor.toFixed(3)}) vs ATRI ${atri.totalPerMile} ` +
      `(fuel ${atri.fuelPerMile}, driver ${atri.driverPerMile})`,
  );
  // The total's distance from ATRI is printed above, not asserted: with the wage dated by its BLS
  // release (docs/data-sources.md) it is an accuracy figure, which the fidelity report measures.
  // Each large part stays within 25 % of ATRI's line item, so one error cannot hide behind another.
  expect(Math.abs(cost.breakdown.labor - atri.driverPerMile) / atri.driverPerMile).toBeLessThan(0.25);
  expect(Math.abs(cost.breakdown.fuel - atri.fuelPerMile) / atri.fuelPerMile).toBeLessThan(0.25);
});
