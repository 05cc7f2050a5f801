import type { Static } from "elysia";
import { errors } from "../../http/errors.ts";
import { dieselPriceForState, type DieselReading } from "../../reference/diesel.ts";
import { dieselExcise } from "../../reference/excise.ts";
import { truckDriverWage } from "../../reference/labor.ts";
import { amsReeferRate } from "../../reference/market-anchor.ts";
import type { ResolvedPlace } from "../../reference/places.ts";
import type { Observation, ReferenceView } from "../../reference/view.ts";
import type { FactorVersion, SkillDeclaration } from "../types.ts";
import { assessConfidence } from "./confidence.ts";
import { atriEditionAsOf, EQUIPMENT_TYPES, MODES, RATE_MODEL } from "./constants.ts";
import { resolveLane } from "./lane.ts";
import { costBasis, round } from "./model.ts";
import { rateLookupInput, rateLookupOutput } from "./schema.ts";

export { EQUIPMENT_TYPES, MODES } from "./constants.ts";

type Input = Static<typeof rateLookupInput>;
type Output = Static<typeof rateLookupOutput>;

export const factor = (observation: Observation): FactorVersion => ({
  series_id: observation.seriesId,
  value: observation.value,
  observation_date: observation.observedOn,
  import_id: observation.importId,
});

/** Factor versions for observations that may repeat (one per series and date), first use first. */
export const distinctFactors = (observations: readonly Observation[]): FactorVersion[] =>
  [...new Map(observations.map((o) => [`${o.seriesId}|${o.observedOn}`, o])).values()].map(factor);

function checkAllowed(field: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) {
    throw errors.invalidRequest([{ field, problem: `must be one of ${allowed.join(", ")}`, allowed }]);
  }
}

export function checkAsOf(asOf: string, today: string): void {
  const parsed = Date.parse(`${asOf}T00:00:00Z`);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(asOf) && !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 10) === asOf;
  if (!valid) throw errors.invalidRequest([{ field: "as_of", problem: `must be a real date YYYY-MM-DD; got '${asOf}'` }]);
  if (asOf > today) throw errors.invalidRequest([{ field: "as_of", problem: `is in the future (today is ${today})` }]);
}

export const beforeData = (what: string, asOf: string) =>
  errors.invalidRequest([{ field: "as_of", problem: `is before the data starts: no ${what} observed on or before ${asOf}` }]);

function laneDiesel(view: ReferenceView, origin: ResolvedPlace, destination: ResolvedPlace): DieselReading[] {
  const readings = [dieselPriceForState(view, origin.state), dieselPriceForState(view, destination.state)];
  if (readings.some((reading) => reading === undefined)) throw beforeData("diesel price", view.asOf);
  const [atOrigin, atDestination] = readings as [DieselReading, DieselReading];
  return atOrigin.observation.seriesId === atDestination.observation.seriesId ? [atOrigin] : [atOrigin, atDestination];
}

const describeDiesel = (readings: DieselReading[]): string =>
  "EIA weekly retail on-highway diesel, " +
  readings.map((r) => `${r.observation.seriesId} (${r.areaName}, week of ${r.observation.observedOn})`).join(" averaged with ");

function handle(input: Input, view: ReferenceView): { answer: Output; factorVersions: FactorVersion[] } {
  const mode = input.mode ?? "FTL";
  checkAllowed("equipment", input.equipment, EQUIPMENT_TYPES);
  checkAllowed("mode", mode, MODES);
  checkAsOf(view.asOf, new Date(view.knownAt).toISOString().slice(0, 10));

  const lane = resolveLane(input.origin, input.destination, input.miles);
  const diesel = laneDiesel(view, lane.origin, lane.destination);
  const dieselPerGallon = diesel.reduce((sum, r) => sum + r.observation.value, 0) / diesel.length;
  const wage = truckDriverWage(view, lane.origin.state);
  if (!wage) throw beforeData("truck-driver wage", view.asOf);
  const atri = atriEditionAsOf(view.asOf);
  if (!atri) throw beforeData("ATRI operating-cost edition", view.asOf);

  const used: Observation[] = [...diesel.map((r) => r.observation), wage.observation];
  // Reefer units run on road-tax-free diesel: retail minus the federal and origin-state excise.
  let offRoadDiesel = dieselPerGallon;
  if (input.equipment === "REEFER") {
    const excise = dieselExcise(view, lane.origin.state);
    for (const tax of [excise.federal, excise.state]) {
      if (!tax) continue;
      offRoadDiesel -= tax.value / 100;
      used.push(tax);
    }
  }

  const cost = costBasis({
    equipment: input.equipment,
    mode,
    dieselPerGallon,
    offRoadDieselPerGallon: offRoadDiesel,
    driverHourlyWage: wage.observation.value,
    atri,
    includeFuelSurcharge: input.include_fuel_surcharge ?? false,
  });

  const ams = input.equipment === "REEFER" && mode === "FTL" ? amsReeferRate(view, lane.origin, lane.destination) : undefined;
  if (ams) used.push(ams);
  const marketAnchor = ams && { observation: ams, deviation: (cost.ratePerMile - ams.value) / ams.value };

  const confidence = assessConfidence({
    asOf: view.asOf,
    diesel,
    wage,
    places: [
      { field: "origin", place: lane.origin },
      { field: "destination", place: lane.destination },
    ],
    distanceMethod: lane.distanceMethod,
    miles: lane.miles,
    mode,
    marketAnchor,
  });

  const placeOut = (text: string, place: ResolvedPlace) => ({
    input: text,
    city: place.city,
    state: place.state,
    lat: place.lat,
    lon: place.lon,
    padd: place.padd,
    resolution: place.quality,
  });

  const answer: Output = {
    type: "COST_BASIS",
    rate_per_mile: round(cost.ratePerMile, 3),
    total_cost: round(cost.ratePerMile * lane.miles, 2),
    miles: round(lane.miles, 1),
    distance_method: lane.distanceMethod,
    equipment: input.equipment,
    mode,
    as_of: view.asOf,
    origin: placeOut(input.origin, lane.origin),
    destination: placeOut(input.destination, lane.destination),
    breakdown: cost.breakdown,
    multipliers: {
      mode: RATE_MODEL.modeMultiplier.value[mode],
      equipment: RATE_MODEL.equipmentMultiplier.value[input.equipment],
    },
    confidence,
    data_sources: {
      diesel_price: round(dieselPerGallon, 4),
      diesel_source: describeDiesel(diesel),
      labor_rate: wage.observation.value,
      labor_source: `BLS OEWS heavy and tractor-trailer truck drivers (53-3032) hourly median, ${wage.scope === "state" ? lane.origin.state : "U.S."}, series ${wage.observation.seriesId} (${wage.observation.observedOn})`,
      equipment_source: `ATRI Operational Costs of Trucking ${atri.edition} edition (${atri.dataYear} data): $${atri.equipmentPerMile}/mile`,
    },
    ...(marketAnchor && {
      market_anchor: {
        source: `USDA AMS Specialty Crops National Truck Rate Report, series ${marketAnchor.observation.seriesId}`,
        rate_per_mile: marketAnchor.observation.value,
        observation_date: marketAnchor.observation.observedOn,
        deviation: round(marketAnchor.deviation, 4),
      },
    }),
    factor_versions: used.map(factor),
    model_version: RATE_MODEL.version,
  };
  return { answer, factorVersions: answer.factor_versions };
}

export const rateLookupSkill: SkillDeclaration<typeof rateLookupInput, typeof rateLookupOutput> = {
  name: "rate-lookup",
  scope: "rate-lookup",
  minimumTier: "explorer",
  description:
    "Cost-basis truckload rate for a lane: diesel (EIA, by PADD), driver wages (BLS OEWS, by state), equipment costs (ATRI), " +
    "distance from the places' coordinates and a road-circuity factor, with per-mile breakdown, confidence and data sources.",
  rest: { method: "POST", path: "/v1/rates/lookup" },
  input: rateLookupInput,
  output: rateLookupOutput,
  asOf: (input) => input.as_of,
  handler(input, context) {
    const { answer, factorVersions } = handle(input, context.data);
    return { answer, factorVersions, modelVersion: RATE_MODEL.version };
  },
};
