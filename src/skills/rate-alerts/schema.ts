import { Type as T } from "@sinclair/typebox";
import { DIESEL_REGION_NAMES } from "../../reference/regions.ts";
import { EQUIPMENT_TYPES } from "../kit.ts";
import { MODES } from "../rate-lookup/index.ts";
import { enumOf, factorVersionSchema, nullable } from "../schema-kit.ts";
import { DIRECTIONS, MAX_COOLDOWN_SECONDS, MAX_PAGE_SIZE, WATCHED_METRICS } from "./constants.ts";

/**
 * The watched figure. Lane metrics need origin, destination and equipment (priced exactly as
 * rate-lookup prices them); diesel metrics need a region. Checked beyond the schema in condition.ts.
 */
export const conditionSchema = T.Object(
  {
    metric: enumOf(WATCHED_METRICS, {
      description: `One of ${WATCHED_METRICS.join(", ")}; diesel_change_percent is the week-over-week change of the region's weekly price`,
    }),
    origin: T.Optional(T.String({ minLength: 1, maxLength: 120, description: 'Lane metrics: "City, ST" or a ZIP code' })),
    destination: T.Optional(T.String({ minLength: 1, maxLength: 120, description: "Lane metrics: same form as origin" })),
    equipment: T.Optional(enumOf(EQUIPMENT_TYPES, { description: `Lane metrics: one of ${EQUIPMENT_TYPES.join(", ")}` })),
    mode: T.Optional(enumOf(MODES, { description: `Lane metrics: one of ${MODES.join(", ")}; default FTL` })),
    miles: T.Optional(T.Number({ description: "Lane metrics: the lane's miles instead of the estimated road distance" })),
    include_fuel_surcharge: T.Optional(T.Boolean({ description: "Lane metrics: price with the fuel surcharge" })),
    region: T.Optional(enumOf(DIESEL_REGION_NAMES, { description: `Diesel metrics: one of ${DIESEL_REGION_NAMES.join(", ")}` })),
  },
  { additionalProperties: false },
);

const alertFields = {
  name: T.Optional(T.String({ minLength: 1, maxLength: 100, description: "A label for the alert" })),
  condition: conditionSchema,
  direction: enumOf(DIRECTIONS, {
    description: "ABOVE and BELOW fire when the figure moves past the threshold and resolve when it moves back; CROSSES fires on every crossing",
  }),
  threshold: T.Number({ description: "USD per mile, USD per load, USD per gallon, or percent, by metric" }),
  cooldown_seconds: T.Optional(T.Integer({ minimum: 0, maximum: MAX_COOLDOWN_SECONDS, description: "After firing, stay quiet this long" })),
};

const alertId = T.String({ pattern: "^alrt_[0-9A-Z]{26}$", description: "The alert's id" });

export const createInput = T.Object(alertFields);
export const updateInput = T.Object({
  id: alertId,
  name: T.Optional(alertFields.name),
  condition: T.Optional(conditionSchema),
  direction: T.Optional(alertFields.direction),
  threshold: T.Optional(alertFields.threshold),
  cooldown_seconds: T.Optional(T.Union([alertFields.cooldown_seconds, T.Null()])),
  enabled: T.Optional(T.Boolean()),
});
export const idInput = T.Object({ id: alertId });
export const listInput = T.Object({
  cursor: T.Optional(T.String({ description: "next_cursor from the previous page" })),
  limit: T.Optional(T.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `1 to ${MAX_PAGE_SIZE}; default 20` })),
});
export const evaluateInput = T.Object({});

const measurementSchema = T.Object({
  value: T.Number(),
  as_of: T.String(),
  known_at: T.String(),
  factor_versions: T.Array(factorVersionSchema),
});

export const alertSchema = T.Object({
  id: T.String(),
  name: T.String(),
  condition: conditionSchema,
  direction: T.String(),
  threshold: T.Number(),
  cooldown_seconds: nullable(T.Integer()),
  enabled: T.Boolean(),
  state: T.Object({
    firing: T.Boolean(),
    last_value: nullable(T.Number()),
    last_evaluated_at: nullable(T.String()),
    last_fired_at: nullable(T.String()),
  }),
  created_at: T.String(),
  updated_at: T.String(),
});

export const alertOutput = T.Object({ alert: alertSchema, measurement: T.Optional(measurementSchema) });
export const listOutput = T.Object({ alerts: T.Array(alertSchema), next_cursor: nullable(T.String()) });
export const deleteOutput = T.Object({ deleted: T.String() });
export const evaluateOutput = T.Object({
  evaluated: T.Integer(),
  fired: T.Array(T.Object({ alert_id: T.String(), event_id: T.String(), type: T.String(), value: T.Number() })),
  failed: T.Array(T.Object({ alert_id: T.String(), error: T.String() })),
});
