import { Type } from "@sinclair/typebox";
import { STATE_CODES } from "../../reference/regions.ts";
import { EQUIPMENT_TYPES } from "../kit.ts";
import { enumOf, factorVersionSchema, isoDate, nullable } from "../schema-kit.ts";
import { AREA_NAMES } from "./area.ts";
import { CAPACITY_LABELS, PRESSURE_INPUT_IDS } from "./constants.ts";

const oneOf = <const Values extends readonly string[]>(values: Values, description?: string) => enumOf(values, description ? { description } : {});

export const carrierCapacityInput = Type.Object(
  {
    area: Type.Optional(oneOf(AREA_NAMES, "NATIONAL (default), PADD1..PADD5, a census region (NORTHEAST, MIDWEST, SOUTH, WEST) or a state's postal code")),
    states: Type.Optional(Type.Array(oneOf(STATE_CODES), { minItems: 1, maxItems: STATE_CODES.length, description: "A list of states instead of a named area" })),
    equipment: Type.Optional(oneOf(EQUIPMENT_TYPES, `One of ${EQUIPMENT_TYPES.join(", ")}; DRY_VAN by default`)),
    as_of: Type.Optional(isoDate("YYYY-MM-DD: answer with only the figures dated and published on or before this date")),
  },
  { additionalProperties: false },
);

const figure = Type.Object({
  value: Type.Number(),
  unit: Type.String(),
  series_id: Type.String(),
  date: Type.String({ description: "The observation's date" }),
  source: Type.String(),
});
const trendFigure = Type.Intersect([figure, Type.Object({ change_3m_percent: nullable(Type.Number()), change_12m_percent: nullable(Type.Number()) })]);
const censusCounts = Type.Object({ carriers: Type.Integer(), power_units: Type.Integer(), drivers: Type.Integer() });

const pressureInput = Type.Object({
  id: oneOf(PRESSURE_INPUT_IDS),
  name: Type.String(),
  side: oneOf(["balance", "demand", "supply", "price", "area"]),
  series_id: Type.String(),
  latest: nullable(Type.Object({ value: Type.Number(), date: Type.String() })),
  measured: nullable(Type.Number({ description: "The input's measure, in `unit`" })),
  unit: Type.String(),
  basis: nullable(Type.String({ description: "What was compared" })),
  age_days: nullable(Type.Integer()),
  freshness: nullable(oneOf(["FRESH", "STALE", "EXPIRED"])),
  signal: nullable(Type.Number({ description: "measured / full-signal move, clamped to [-1, 1], +1 = tight" })),
  weight: Type.Number(),
  effective_weight: Type.Number({ description: "The weight it counted with: halved when stale, 0 when left out" }),
  contribution: nullable(Type.Number({ description: "Index points this input adds; the contributions sum to the index" })),
  missing: nullable(Type.String({ description: "Why it does not count" })),
  rationale: Type.String(),
});

const pastValue = Type.Object({
  months_before: Type.Integer(),
  as_of: Type.String(),
  value: nullable(Type.Integer()),
  label: nullable(oneOf(CAPACITY_LABELS)),
});

export const carrierCapacityOutput = Type.Object({
  as_of: Type.String(),
  area: Type.Object({
    name: Type.String(),
    kind: oneOf(["NATIONAL", "PADD", "CENSUS_REGION", "STATE", "STATES"]),
    states: Type.Array(Type.String()),
  }),
  equipment: oneOf(EQUIPMENT_TYPES),
  equipment_note: Type.String(),
  supply: Type.Object({
    census: nullable(
      Type.Object({
        date: Type.String(),
        series_id: Type.String(),
        source: Type.String(),
        for_hire: censusCounts,
        by_operation: Type.Object({ A: censusCounts, B: censusCounts, C: censusCounts }, { description: "A interstate, B intrastate hazmat, C intrastate non-hazmat" }),
      }),
    ),
    truck_drivers: Type.Object({
      employment: nullable(figure),
      states_without_employment: Type.Array(Type.String()),
      national_median_wage_hourly: nullable(figure),
      by_state: Type.Array(Type.Object({ state: Type.String(), employment: nullable(figure), median_wage_hourly: nullable(figure) })),
    }),
    national_truck_employment: nullable(Type.Intersect([trendFigure, Type.Object({ trend: nullable(oneOf(["RISING", "FALLING", "FLAT"])) })])),
    carrier_population: Type.Object({
      scope: Type.Literal("NATIONAL"),
      new_authorities: nullable(figure),
      net_revocations: nullable(figure),
      net_change: nullable(figure),
    }),
    new_carriers_by_state: Type.Array(Type.Intersect([Type.Object({ state: Type.String() }), figure])),
  }),
  demand: Type.Object({
    freight_tsi: nullable(trendFigure),
    cass_shipments: nullable(trendFigure),
    ata_tonnage: nullable(trendFigure),
    industrial_production: nullable(trendFigure),
    area_share: Type.Object({
      truck_driver_employment_percent: nullable(Type.Number()),
      census_power_units_percent: nullable(Type.Number()),
      freight_volume_percent: Type.Null(),
      note: Type.String(),
    }),
  }),
  capacity_pressure: Type.Object({
    value: nullable(Type.Integer({ minimum: -100, maximum: 100, description: "-100 loose .. +100 tight; null when too little could be measured" })),
    label: nullable(oneOf(CAPACITY_LABELS)),
    scale: Type.String(),
    coverage: Type.Number({ description: "Share of the applicable inputs' weight that counted" }),
    reasons: Type.Array(Type.String()),
    inputs: Type.Array(pressureInput),
    history: Type.Array(pastValue),
    method: Type.String(),
  }),
  confidence: Type.Object({ level: oneOf(["HIGH", "MEDIUM", "LOW"]), reasons: Type.Array(Type.String()) }),
  missing: Type.Array(Type.String({ description: "Inputs the answer lacks, and how to supply them" })),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
