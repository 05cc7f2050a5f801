import { LOWER_48_VIEWBOX } from "../../src/dashboard/lane/us-map.ts";
import type { HistoryPoint } from "../../src/dashboard/lane/lane-history.ts";
import { assetUrl } from "../../src/dashboard/static.ts";
import { seriesTitle } from "../../src/reference/series/series-titles.ts";
import { EQUIPMENT_TYPES } from "../../src/skills/kit.ts";
import { MODES } from "../../src/skills/rate-lookup/constants.ts";
import { Flash } from "../flash.tsx";
import { AppLayout, type Viewer } from "../layout.tsx";
import { jsonIsland } from "../usage/usage-sections.tsx";
import { BreakdownChart } from "./lane-charts.tsx";
import { CONFIDENCE_LABELS, districtLabel, EQUIPMENT_LABELS, MODE_LABELS, marketLabel } from "./lane-labels.ts";

export interface LaneForm {
  origin: string;
  destination: string;
  equipment: string;
  mode: string;
  as_of: string;
  include_fuel_surcharge: boolean;
}

export interface RouteMap {
  borders: string;
  route: string | null;
  origin: [number, number];
  destination: [number, number];
}

export type ForecastPanel =
  | { kind: "shown"; points: { date: string; p50: number; interval_80: Bounds; interval_95: Bounds }[] }
  | { kind: "locked"; requiredTier: string }
  | { kind: "unavailable"; message: string };
type Bounds = { lower: number; upper: number };

export interface LaneResult {
  answer: Record<string, unknown>;
  map: RouteMap;
  history: HistoryPoint[];
  forecast: ForecastPanel;
}

export interface LanePageProps {
  viewer: Viewer;
  form: LaneForm;
  hasKey: boolean;
  result?: LaneResult;
  error?: string;
  suggestions?: string[];
}

const money = (value: number) =>
  `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Price a lane: the form, then the answer as pictures (route, costs, history, forecast) and its receipt. */
export function LanePage(props: LanePageProps) {
  return (
    <AppLayout title="Price a lane" viewer={props.viewer} section="lane">
      <div class="page-head no-print">
        <h1>Price a lane</h1>
        <p class="muted">
          A cost-basis rate from public data, priced with your API key: it counts as one rate lookup and gets a receipt
          you can hand on.
        </p>
      </div>
      {props.hasKey ? (
        <LaneFormCard form={props.form} />
      ) : (
        <p class="card">
          Lanes are priced under your API key, so they are metered and receipted like any call.{" "}
          <a href="/dashboard/keys">Create a key</a> first.
        </p>
      )}
      <Flash error={props.error} />
      {props.suggestions?.length ? (
        <p class="no-print" safe>{`Did you mean: ${props.suggestions.join("; ")}?`}</p>
      ) : null}
      {props.result ? <LaneAnswer result={props.result} /> : null}
      <link rel="stylesheet" href={assetUrl("uPlot.min.css")} />
      <script src={assetUrl("uPlot.iife.min.js")} defer></script>
      <script src={assetUrl("lane-charts.js")} defer></script>
    </AppLayout>
  );
}

function PlaceField(props: { name: "origin" | "destination"; label: string; value: string }) {
  const list = `${props.name}-places`;
  return (
    <div class="field">
      <label for={props.name} safe>
        {props.label}
      </label>
      <input
        id={props.name}
        name={props.name}
        value={props.value}
        required
        type="text"
        autocomplete="off"
        list={list}
        placeholder="City, ST or ZIP"
        aria-describedby={`${props.name}-help`}
        hx-get={`/dashboard/lane/places?list=${list}`}
        hx-trigger="input changed delay:250ms"
        hx-target={`#${list}`}
      />
      <datalist id={list}></datalist>
      <small id={`${props.name}-help`} class="muted">
        A city and state ("Chicago, IL") or a 5-digit ZIP code.
      </small>
    </div>
  );
}

function LaneFormCard({ form }: { form: LaneForm }) {
  return (
    <form method="get" action="/dashboard/lane" class="card lane-form no-print">
      <PlaceField name="origin" label="Origin" value={form.origin} />
      <PlaceField name="destination" label="Destination" value={form.destination} />
      <div class="field">
        <label for="equipment">Equipment</label>
        <select id="equipment" name="equipment">
          {EQUIPMENT_TYPES.map((value) => (
            <option value={value} selected={form.equipment === value} safe>
              {EQUIPMENT_LABELS[value] ?? value}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="mode">Mode</label>
        <select id="mode" name="mode">
          {MODES.map((value) => (
            <option value={value} selected={form.mode === value} safe>
              {MODE_LABELS[value] ?? value}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="as_of">Price as of</label>
        <input id="as_of" name="as_of" type="date" value={form.as_of} aria-describedby="as_of-help" />
        <small id="as_of-help" class="muted">
          Only data published by this date is used. Empty: today.
        </small>
      </div>
      <div class="field checkbox">
        <input
          id="include_fuel_surcharge"
          name="include_fuel_surcharge"
          type="checkbox"
          value="yes"
          checked={form.include_fuel_surcharge}
        />
        <label for="include_fuel_surcharge">Show the fuel surcharge as its own line</label>
      </div>
      <button type="submit">Price the lane</button>
    </form>
  );
}

/** The fields of a rate-lookup answer the page shows. */
interface LaneAnswerShape {
  rate_per_mile: number;
  total_cost: number;
  miles: number;
  as_of: string;
  equipment: string;
  mode: string;
  origin: { city: string; state: string };
  destination: { city: string; state: string };
  breakdown: Record<string, unknown>;
  confidence: { level: string; reasons: string[] };
  data_sources: Record<string, unknown>;
  lane_balance: {
    origin_district: string | null;
    destination_market: string | null;
    level: number;
    outbound: number;
    inbound: number;
    factor: number;
  };
  market_anchor?: {
    source: string;
    observation_date: string;
    low_per_load: number;
    high_per_load: number;
    spread: number;
  };
  receipt_id: string;
}

/** Why a reefer load out of a produce district costs more or less than its cost lines: docs/rate-model.md, "Lane balance". */
function HeadHaul({ balance }: { balance: LaneAnswerShape["lane_balance"] }) {
  if (balance.factor === 1 || balance.origin_district === null) return null;
  const change = Math.round(Math.abs(balance.factor - 1) * 100);
  const into = balance.destination_market ? `into ${marketLabel(balance.destination_market)}` : "into this market";
  return (
    <p class="small muted" safe>
      {`Head haul: a reefer load out of the ${districtLabel(balance.origin_district)} shipping district costs ${change} % ${balance.factor > 1 ? "more" : "less"} on its lines other than fuel (level ×${balance.level}, this district ×${balance.outbound}, ${into} ×${balance.inbound}; fitted on USDA AMS produce truck rates).`}
    </p>
  );
}

function LaneAnswer({ result }: { result: LaneResult }) {
  const a = result.answer as Record<string, never> & LaneAnswerShape;
  const lane = `${a.origin.city}, ${a.origin.state} → ${a.destination.city}, ${a.destination.state}`;
  // By name and date, one line per figure used (the answer's factor versions), not by series id.
  const factors = (result.answer.factor_versions ?? []) as { series_id: string; observation_date: string }[];
  const sources = [...new Set(factors.map((factor) => `${seriesTitle(factor.series_id)}, ${factor.observation_date}`))];
  return (
    <div class="lane-answer">
      <section class="card confirmation">
        <p class="print-only muted">Rate confirmation · Waybill</p>
        <h2 safe>{lane}</h2>
        <p class="muted" safe>
          {`${EQUIPMENT_LABELS[a.equipment] ?? a.equipment}, ${MODE_LABELS[a.mode] ?? a.mode}, as of ${a.as_of}, ${Math.round(a.miles).toLocaleString("en-US")} miles`}
        </p>
        <div class="figures">
          <div>
            <span class="label">Cost per mile</span>
            <strong safe>{money(a.rate_per_mile)}</strong>
          </div>
          <div>
            <span class="label">Cost per load</span>
            <strong safe>{money(a.total_cost)}</strong>
          </div>
          {a.market_anchor ? (
            <div>
              <span class="label" safe>{`Market (${a.market_anchor.source})`}</span>
              <strong safe>{`${money(a.market_anchor.low_per_load)} – ${money(a.market_anchor.high_per_load)}`}</strong>
              <span class="muted small" safe>
                {`per load, ${a.market_anchor.observation_date}; cost is ${(a.market_anchor.spread * 100).toFixed(1)} % from its midpoint`}
              </span>
            </div>
          ) : null}
        </div>
        <h3>Where the cost comes from</h3>
        <BreakdownChart breakdown={a.breakdown} />
        <HeadHaul balance={a.lane_balance} />
        <h3 safe>{`Confidence: ${CONFIDENCE_LABELS[a.confidence.level] ?? a.confidence.level}`}</h3>
        <ul>
          {a.confidence.reasons.map((reason) => (
            <li safe>{reason}</li>
          ))}
        </ul>
        <h3>Data sources</h3>
        <ul>
          {sources.map((source) => (
            <li safe>{source}</li>
          ))}
        </ul>
        <h3>Receipt</h3>
        <p>
          <a href={`/dashboard/receipts/${a.receipt_id}`} safe>
            {a.receipt_id}
          </a>
        </p>
        <p class="small muted">
          Every figure above is signed in this receipt. To verify it, open the receipt page (or ask for the audit report
          of this receipt id through the API) and check its Ed25519 signature against the instance's public key at
          /v1/receipts/public-key.
        </p>
        <button type="button" class="secondary no-print" id="print-confirmation">
          Print rate confirmation
        </button>
      </section>
      <section class="card no-print">
        <h2>Route</h2>
        <svg viewBox={LOWER_48_VIEWBOX} class="route-map" role="img" aria-label={`Road route ${lane}`}>
          <path d={result.map.borders} class="states" />
          {result.map.route ? <path d={result.map.route} class="route" /> : null}
          <circle cx={result.map.origin[0].toFixed(1)} cy={result.map.origin[1].toFixed(1)} r="7" class="origin" />
          <circle
            cx={result.map.destination[0].toFixed(1)}
            cy={result.map.destination[1].toFixed(1)}
            r="7"
            class="destination"
          />
        </svg>
        <p class="small muted">
          <span class="dot origin"></span> Origin <span class="dot destination"></span> Destination. State outlines: US
          Census Bureau via us-atlas; road: Waybill's Interstate network.
        </p>
      </section>
      <section class="card no-print">
        <h2>The lane over time</h2>
        <p class="muted small">Cost per mile as of each of the last 13 months, on the same figures.</p>
        <div class="chart" id="lane-history-chart" data-island="lane-history"></div>
        {jsonIsland("lane-history", result.history)}
      </section>
      <ForecastCard forecast={result.forecast} />
    </div>
  );
}

function ForecastCard({ forecast }: { forecast: ForecastPanel }) {
  return (
    <section class="card no-print">
      <h2>Forecast</h2>
      {forecast.kind === "shown" ? (
        <>
          <p class="muted small">Median cost per mile, with the 80 % and 95 % bands (one rate forecast call).</p>
          <div class="chart" id="lane-forecast-chart" data-island="lane-forecast"></div>
          {jsonIsland("lane-forecast", forecast.points)}
        </>
      ) : forecast.kind === "locked" ? (
        <div class="locked">
          <p safe>{`The forecast with its 80 % and 95 % bands needs the ${forecast.requiredTier} tier.`}</p>
          <a href="/pricing">See the tiers and upgrade</a>
        </div>
      ) : (
        <p class="muted" safe>
          {forecast.message}
        </p>
      )}
    </section>
  );
}
