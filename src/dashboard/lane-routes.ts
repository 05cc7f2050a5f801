import { Elysia } from "elysia";
import { decide } from "../access/authorize.ts";
import type { Principal } from "../access/principal.ts";
import { ApiError } from "../errors.ts";
import { requestIdOf } from "../http/pipeline/request-pipeline.ts";
import { runSkillAs } from "../pipeline/run-skill.ts";
import { placeSuggestions } from "../reference/geo/place-suggestions.ts";
import { embeddedRoadNetwork, roadPath } from "../reference/roads/index.ts";
import { callName, type AnySkill } from "../skills/types.ts";
import { LanePage, type ForecastPanel, type LaneForm, type LaneResult } from "../../views/lane/lane-page.tsx";
import { accountGrant } from "./account-grant.ts";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { laneHistory } from "./lane/lane-history.ts";
import { projectAlbers, routeData, stateBorders } from "./lane/us-map.ts";
import { htmlResponse, pageResponse } from "./render.ts";

type Place = { lat: number; lon: number };

function formOf(query: Record<string, string | undefined>): LaneForm {
  return {
    origin: query.origin?.trim() ?? "",
    destination: query.destination?.trim() ?? "",
    equipment: query.equipment ?? "DRY_VAN",
    mode: query.mode ?? "FTL",
    as_of: query.as_of ?? "",
    include_fuel_surcharge: query.include_fuel_surcharge === "yes",
  };
}

/** The form as rate-lookup's input: an empty date means today; the surcharge box adds its line. */
function laneInput(form: LaneForm): Record<string, unknown> {
  return {
    origin: form.origin,
    destination: form.destination,
    equipment: form.equipment,
    mode: form.mode,
    ...(form.as_of && { as_of: form.as_of }),
    ...(form.include_fuel_surcharge && { include_fuel_surcharge: true }),
  };
}

/**
 * Price a lane in the browser (docs/batch.md, "The analyst's pages"): one rate-lookup call under
 * the account's active key grant, metered and receipted like any other; the 13 months of the lane
 * over time are replays inside that call; the forecast is its own metered rate-forecast call for
 * tiers that have it, and is shown locked below them.
 */
export function laneRoutes(context: DashboardContext) {
  const skillNamed = (name: string) => context.skills.find((skill) => callName(skill) === name) as AnySkill;
  const rateLookup = skillNamed("rate-lookup");
  const rateForecast = skillNamed("rate-forecast");

  async function forecastPanel(
    grant: Principal,
    input: Record<string, unknown>,
    requestId: string,
  ): Promise<ForecastPanel> {
    if (!rateForecast) return { kind: "unavailable", message: "This instance does not serve forecasts." };
    if (!decide(grant.tier, grant.scopes, rateForecast).allowed)
      return { kind: "locked", requiredTier: rateForecast.minimumTier };
    try {
      const answer = await runSkillAs(context.pipeline, rateForecast, grant, input, `${requestId}.forecast`);
      return { kind: "shown", points: answer.forecast as Extract<ForecastPanel, { kind: "shown" }>["points"] };
    } catch (error) {
      return { kind: "unavailable", message: error instanceof ApiError ? error.message : "The forecast failed." };
    }
  }

  async function priced(grant: Principal, form: LaneForm, requestId: string): Promise<LaneResult> {
    const input = laneInput(form);
    const answer = await runSkillAs(context.pipeline, rateLookup, grant, input, requestId);
    const origin = answer.origin as Place;
    const destination = answer.destination as Place;
    const asOf = answer.as_of as string;
    const view = context.reference.view(asOf, context.clock.now());
    const path = roadPath(view.roads ?? embeddedRoadNetwork(), origin, destination);
    const history = await laneHistory(context.pipeline, rateLookup, grant, input, asOf);
    return {
      answer,
      map: {
        borders: stateBorders(),
        route: path ? routeData(path) : null,
        origin: projectAlbers(origin),
        destination: projectAlbers(destination),
      },
      history,
      forecast: await forecastPanel(grant, input, requestId),
    };
  }

  return new Elysia({ name: "dashboard-lane" })
    .use(sessionGuard(context))
    .get(
      "/dashboard/lane",
      async ({ request, query, signedIn: { account, viewer } }) => {
        const form = formOf(query);
        const grant = await accountGrant(context, account);
        const page = { viewer, form, hasKey: grant !== null };
        if (!grant || !form.origin || !form.destination) return pageResponse(LanePage(page));
        try {
          return pageResponse(LanePage({ ...page, result: await priced(grant, form, requestIdOf(request)) }));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const suggestions = error.extra.suggestions ?? error.extra.candidates;
          const details = error.extra.details as { field: string; problem: string }[] | undefined;
          const message = details?.length
            ? details.map((detail) => `${detail.field} ${detail.problem}`).join("; ")
            : error.message;
          return pageResponse(
            LanePage({ ...page, error: message, suggestions: Array.isArray(suggestions) ? suggestions : undefined }),
            { status: error.status },
          );
        }
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/lane/places",
      ({ query }) => {
        const list = query.list === "destination-places" ? "destination-places" : "origin-places";
        const typed = (list === "origin-places" ? query.origin : query.destination) ?? "";
        const options = placeSuggestions(typed)
          .map((place) => `<option value="${Bun.escapeHTML(place)}"></option>`)
          .join("");
        return htmlResponse(`<datalist id="${list}">${options}</datalist>`);
      },
      { signedIn: "account" },
    );
}
