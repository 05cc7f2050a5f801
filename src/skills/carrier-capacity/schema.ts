import { Type } from "@sinclair/typebox";
import { STATE_CODES } from "../../reference/geo/regions.ts";
import { EQUIPMENT_TYPES } from "../kit.ts";
import { enumOf, factorVersionSchema, isoDate, nullable } from "../schema-kit.ts";
import { AREA_NAMES } from "./area.ts";
import { CAPACITY_LABELS, PRESSURE_INPUT_IDS } from "./constants.ts";

const oneOf = <const Values extends readonly string[]>(values: Values, description?: string) =>
  enumOf(values, description ? { description } : {});

export const carrierCapacityInput = Type.Object(
  {
    area: Type.Optional(
      oneOf(
        AREA_NAMES,
        "NATIONAL (default), PADD1..PADD5, a census region (NORTHEAST, MIDWEST, SOUTH, WEST) or a state's postal code",
      ),
    ),
    states: Type.Optional(
      Type.Array(oneOf(STATE_CODES), {
        minItems: 1,
        maxItems: STATE_CODES.length,
        description: "A list of states instead of a named area",
      }),
    ),
    equipment: Type.Optional(oneOf(EQUIPMENT_TYPES, `One of ${EQUIPMENT_TYPES.join(", ")}; DRY_VAN by default`)),
    as_of: Type.Optional(
      isoDate("YYYY-MM-DD: answer with only the figures dated and published on or before this date"),
    ),
  },
  { additionalProperties: false },
);

const figureFields = {
  value: Type.Number(),
  unit: Type.String(),
  series_id: Type.String(),
  date: Type.String({ description: "The observation's date" }),
  source: Type.String(),
};
/** A published figure: value, unit, series, date and source. */
const figure = (description: string) => Type.Object(figureFields, { description });
const trendFigure = (description: string) =>
  Type.Intersect(
    [
      Type.Object(figureFields),
      Type.Object({ change_3m_percent: nullable(Type.Number()), change_12m_percent: nullable(Type.Number()) }),
    ],
    {
      description: `${description}, with its change over 3 and 12 months in percent`,
    },
  );
const censusCounts = (description: string) =>
  Type.Object(
    {
      carriers: Type.Integer({ description: "Active carriers" }),
      power_units: Type.Integer({ description: "Power units (tractors and trucks) they operate" }),
      drivers: Type.Integer({ description: "Drivers they employ" }),
    },
    { description },
  );

const pressureInput = Type.Object({
  id: oneOf(PRESSURE_INPUT_IDS),
  name: Type.String(),
  side: oneOf(["demand", "supply", "price", "area"], "Which side of the market it measures"),
  series_id: Type.String(),
  latest: nullable(Type.Object({ value: Type.Number(), date: Type.String() })),
  measured: nullable(Type.Number({ description: "The input's measure, in `unit`" })),
  unit: Type.String(),
  standard_score: nullable(
    Type.Number({
      description: "For inputs judged against their own past ten years: standard deviations from its mean there",
    }),
  ),
  basis: nullable(Type.String({ description: "What was compared" })),
  age_days: nullable(Type.Integer()),
  freshness: nullable(oneOf(["FRESH", "STALE", "EXPIRED"], "How recent its latest figure is")),
  signal: nullable(
    Type.Number({
      description:
        "measured (or its standard score against its own history) / full-signal move, clamped to [-1, 1], +1 = tight",
    }),
  ),
  weight: Type.Number(),
  effective_weight: Type.Number({ description: "The weight it counted with: halved when stale, 0 when left out" }),
  contribution: nullable(
    Type.Number({ description: "Index points this input adds; the contributions sum to the index" }),
  ),
  missing: nullable(Type.String({ description: "Why it does not count" })),
  rationale: Type.String(),
});

const pastValue = Type.Object({
  months_before: Type.Integer({ description: "How many months before as_of" }),
  as_of: Type.String(),
  value: nullable(Type.Integer()),
  label: nullable(oneOf(CAPACITY_LABELS)),
});

export const carrierCapacityOutput = Type.Object({
  as_of: Type.String(),
  area: Type.Object(
    {
      name: Type.String(),
      kind: oneOf(["NATIONAL", "PADD", "CENSUS_REGION", "STATE", "STATES"], "What kind of area it is"),
      states: Type.Array(Type.String(), { description: "The states the area covers" }),
    },
    { description: "The area answered for" },
  ),
  equipment: oneOf(EQUIPMENT_TYPES),
  equipment_note: Type.String({
    description: "How the equipment type bears on the figures (most are not split by equipment)",
  }),
  supply: Type.Object(
    {
      census: nullable(
        Type.Object(
          {
            date: Type.String(),
            series_id: Type.String(),
            source: Type.String(),
            for_hire: censusCounts("For-hire carriers in the area"),
            by_operation: Type.Object(
              {
                A: censusCounts("Interstate carriers"),
                B: censusCounts("Intrastate hazmat carriers"),
                C: censusCounts("Intrastate non-hazmat carriers"),
              },
              { description: "A interstate, B intrastate hazmat, C intrastate non-hazmat" },
            ),
          },
          { description: "FMCSA's census of active carriers in the area; null when not loaded" },
        ),
      ),
      truck_drivers: Type.Object(
        {
          employment: nullable(figure("Heavy truck driver employment in the area")),
          states_without_employment: Type.Array(Type.String(), {
            description: "States of the area without a published employment figure",
          }),
          national_median_wage_hourly: nullable(figure("National median hourly wage of heavy truck drivers")),
          by_state: Type.Array(
            Type.Object({
              state: Type.String(),
              employment: nullable(figure("Heavy truck driver employment in the state")),
              median_wage_hourly: nullable(figure("Median hourly wage of heavy truck drivers in the state")),
            }),
            { description: "The same figures per state of the area" },
          ),
        },
        { description: "BLS occupational employment and wages of heavy truck drivers" },
      ),
      national_truck_employment: nullable(
        Type.Intersect(
          [
            trendFigure("National truck transportation employment"),
            Type.Object({ trend: nullable(oneOf(["RISING", "FALLING", "FLAT"])) }),
          ],
          {
            description: "National truck transportation employment, its changes and trend",
          },
        ),
      ),
      carrier_population: Type.Object(
        {
          scope: Type.Literal("NATIONAL", {
            description: "Always national: authority grants and revocations are not published by area",
          }),
          new_authorities: nullable(figure("New operating authorities granted")),
          net_revocations: nullable(figure("Operating authorities revoked, net of reinstatements")),
          net_change: nullable(figure("New authorities minus net revocations")),
        },
        { description: "How the carrier population is changing" },
      ),
      new_carriers_by_state: Type.Array(
        Type.Intersect([Type.Object({ state: Type.String() }), Type.Object(figureFields)]),
        {
          description: "New carriers per state of the area",
        },
      ),
    },
    { description: "Figures on the supply of trucks and drivers" },
  ),
  demand: Type.Object(
    {
      freight_tsi: nullable(trendFigure("BTS freight transportation services index")),
      cass_shipments: nullable(trendFigure("Cass freight shipments index")),
      ata_tonnage: nullable(trendFigure("ATA truck tonnage index")),
      industrial_production: nullable(trendFigure("Industrial production index")),
      area_share: Type.Object(
        {
          truck_driver_employment_percent: nullable(
            Type.Number({ description: "The area's share of national truck driver employment, percent" }),
          ),
          census_power_units_percent: nullable(
            Type.Number({ description: "The area's share of national power units, percent" }),
          ),
          freight_volume_percent: Type.Null({ description: "Not published by area; always null" }),
          note: Type.String({ description: "How to read the shares" }),
        },
        { description: "The area's share of national figures, to scale the national demand series" },
      ),
    },
    { description: "National freight demand series" },
  ),
  capacity_pressure: Type.Object(
    {
      value: nullable(
        Type.Integer({
          minimum: -100,
          maximum: 100,
          description: "-100 loose .. +100 tight; null when too little could be measured",
        }),
      ),
      label: nullable(oneOf(CAPACITY_LABELS)),
      scale: Type.String({ description: "How to read the index value" }),
      coverage: Type.Number({ description: "Share of the applicable inputs' weight that counted" }),
      reasons: Type.Array(Type.String()),
      inputs: Type.Array(pressureInput, {
        description: "Each input of the index, what it measured and what it contributed",
      }),
      history: Type.Array(pastValue, { description: "The index at earlier dates, computed the same way" }),
      method: Type.String(),
    },
    { description: "The capacity pressure index: how tight truck capacity is, from the inputs below" },
  ),
  confidence: Type.Object({ level: oneOf(["HIGH", "MEDIUM", "LOW"]), reasons: Type.Array(Type.String()) }),
  missing: Type.Array(Type.String({ description: "Inputs the answer lacks, and how to supply them" }), {
    description: "Inputs the answer lacks, and how to supply them",
  }),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
