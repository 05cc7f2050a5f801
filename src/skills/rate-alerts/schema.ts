import { Type as T } from "@sinclair/typebox";
import { DIESEL_REGION_NAMES } from "../../reference/geo/regions.ts";
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
    origin: T.Optional(
      T.String({ minLength: 1, maxLength: 120, description: 'Lane metrics: "City, ST" or a ZIP code' }),
    ),
    destination: T.Optional(
      T.String({ minLength: 1, maxLength: 120, description: "Lane metrics: same form as origin" }),
    ),
    equipment: T.Optional(
      enumOf(EQUIPMENT_TYPES, { description: `Lane metrics: one of ${EQUIPMENT_TYPES.join(", ")}` }),
    ),
    mode: T.Optional(enumOf(MODES, { description: `Lane metrics: one of ${MODES.join(", ")}; default FTL` })),
    miles: T.Optional(
      T.Number({ description: "Lane metrics: the lane's miles instead of the estimated road distance" }),
    ),
    include_fuel_surcharge: T.Optional(T.Boolean({ description: "Lane metrics: price with the fuel surcharge" })),
    region: T.Optional(
      enumOf(DIESEL_REGION_NAMES, { description: `Diesel metrics: one of ${DIESEL_REGION_NAMES.join(", ")}` }),
    ),
  },
  { additionalProperties: false, description: "The watched figure: a lane's rate or a region's diesel price" },
);

const alertFields = {
  name: T.Optional(T.String({ minLength: 1, maxLength: 100, description: "A label for the alert" })),
  condition: conditionSchema,
  direction: enumOf(DIRECTIONS, {
    description:
      "ABOVE and BELOW fire when the figure moves past the threshold and resolve when it moves back; CROSSES fires on every crossing",
  }),
  threshold: T.Number({ description: "USD per mile, USD per load, USD per gallon, or percent, by metric" }),
  cooldown_seconds: T.Optional(
    T.Integer({ minimum: 0, maximum: MAX_COOLDOWN_SECONDS, description: "After firing, stay quiet this long" }),
  ),
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
  enabled: T.Optional(T.Boolean({ description: "false pauses the alert: kept, not evaluated" })),
});
export const idInput = T.Object({ id: alertId });
export const listInput = T.Object({
  cursor: T.Optional(T.String({ description: "next_cursor from the previous page" })),
  limit: T.Optional(
    T.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `1 to ${MAX_PAGE_SIZE}; default 20` }),
  ),
});
export const evaluateInput = T.Object({});

const measurementSchema = T.Object(
  {
    value: T.Number({ description: "The watched figure, in the unit of the threshold" }),
    as_of: T.String({ description: "The date of the data it was computed from (YYYY-MM-DD)" }),
    known_at: T.String({ description: "When that data was known to this instance (ISO 8601)" }),
    factor_versions: T.Array(factorVersionSchema, { description: "Every stored figure the measurement used" }),
  },
  { description: "The figure now, the baseline the alert starts from" },
);

export const alertSchema = T.Object(
  {
    id: alertId,
    name: T.String({ description: "The alert's label" }),
    condition: conditionSchema,
    direction: T.String({ description: alertFields.direction.description }),
    threshold: alertFields.threshold,
    cooldown_seconds: nullable(T.Integer({ description: "Quiet period after firing, seconds; null for none" })),
    enabled: T.Boolean({ description: "Whether it is evaluated" }),
    state: T.Object(
      {
        firing: T.Boolean({ description: "The figure is past the threshold since the last trigger" }),
        last_value: nullable(T.Number({ description: "The figure at the last evaluation; null before the first" })),
        last_evaluated_at: nullable(
          T.String({ description: "When it was last evaluated (ISO 8601); null before the first" }),
        ),
        last_fired_at: nullable(T.String({ description: "When it last fired (ISO 8601); null if never" })),
      },
      { description: "Where the alert stands" },
    ),
    created_at: T.String({ description: "When it was created (ISO 8601)" }),
    updated_at: T.String({ description: "When it was last changed (ISO 8601)" }),
  },
  { description: "A rate alert" },
);

export const alertOutput = T.Object({
  alert: alertSchema,
  measurement: T.Optional(measurementSchema),
  fired: T.Optional(
    T.Object(
      {
        event_id: T.String({ description: "The alert.triggered event (see GET /v1/events)" }),
        type: T.String({ description: "The event type" }),
      },
      { description: "Present when the condition already held: this first evaluation fired" },
    ),
  ),
});
export const listOutput = T.Object({
  alerts: T.Array(alertSchema, { description: "Your alerts, newest first" }),
  next_cursor: nullable(T.String({ description: "Pass as cursor for the next page; null on the last page" })),
});
export const deleteOutput = T.Object({ deleted: T.String({ description: "The id of the deleted alert" }) });
export const evaluateOutput = T.Object({
  evaluated: T.Integer({ description: "How many of your enabled alerts were evaluated" }),
  fired: T.Array(
    T.Object({
      alert_id: T.String({ description: "The alert that fired" }),
      event_id: T.String({ description: "The event it recorded (see GET /v1/events)" }),
      type: T.String({ description: "The event type" }),
      value: T.Number({ description: "The figure that crossed the threshold" }),
    }),
    { description: "Alerts that fired in this evaluation" },
  ),
  failed: T.Array(
    T.Object({
      alert_id: T.String({ description: "The alert" }),
      error: T.String({ description: "Why it could not be evaluated" }),
    }),
    {
      description: "Alerts that could not be evaluated",
    },
  ),
});
