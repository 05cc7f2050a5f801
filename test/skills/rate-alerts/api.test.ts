import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { setTier } from "../../../src/access/accounts.ts";
import { appendObservations } from "../../../src/reference/storage/append.ts";
import { dieselSeriesId } from "../../../src/reference/series/series-ids.ts";
import { MAX_ALERTS_BY_TIER } from "../../../src/skills/rate-alerts/constants.ts";
import type { alertOutput, deleteOutput, evaluateOutput, listOutput } from "../../../src/skills/rate-alerts/schema.ts";
import type { Static } from "@sinclair/typebox";
import type { ManualClock } from "../../../src/clock.ts";
import { createEndpoint } from "../../../src/webhooks/endpoints.ts";
import { testInstance, type TestInstance } from "../../support/instance.ts";
import { defined } from "../../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ listen: true });
});
afterAll(() => server.stop());

/** The answers these tests read, typed from the skill's own schemas where it declares them. */
type AlertAnswer = Static<typeof alertOutput> & {
  receipt_id: string;
  measurement: NonNullable<Static<typeof alertOutput>["measurement"]>;
};
type AlertList = Static<typeof listOutput>;
type Deleted = Static<typeof deleteOutput>;
type Evaluated = Static<typeof evaluateOutput>;
type Refusal = {
  error: string;
  message: string;
  required_tier?: string;
  details: { field: string; problem: string }[];
};
type EventList = {
  events: { id: string; type: string; data: { measurement?: { factor_versions: unknown[] } } }[];
  next_cursor: string | null;
};
type Quote = { total_cost: number; factor_versions: AlertAnswer["measurement"]["factor_versions"] };

const json = async <Body>(response: Response) => ({
  status: response.status,
  body: (await response.json()) as Body,
});
const nationalDiesel = () =>
  defined(
    server.runtime.reference.view("2026-10-15", server.clock.now()).latest(dieselSeriesId("NUS")),
    "the national diesel price",
  );

/** The parts of an OpenAPI path item these tests read. */
type Paths = Record<
  string,
  {
    operationId?: string;
    parameters?: { name: string; in: string; required?: boolean }[];
    requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  }
>;

function dieselAlert(threshold: number, direction = "ABOVE") {
  return { name: "US diesel", condition: { metric: "diesel_price", region: "NATIONAL" }, direction, threshold };
}

describe("rate-alerts over REST", () => {
  test("create answers with the alert, its baseline measurement and a receipt; get, patch and delete it", async () => {
    const { key } = await server.accountWithKey("starter");
    const current = nationalDiesel();
    const created = await json<AlertAnswer>(
      await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(current.value + 1) }),
    );
    expect(created.status).toBe(200);
    expect(created.body.receipt_id).toMatch(/^rcpt_/);
    expect(created.body.alert).toMatchObject({
      name: "US diesel",
      direction: "ABOVE",
      enabled: true,
      state: { firing: false, last_value: current.value },
    });
    expect(created.body.measurement.factor_versions).toEqual([
      {
        series_id: current.seriesId,
        value: current.value,
        observation_date: current.observedOn,
        import_id: current.importId,
      },
    ]);
    const id = created.body.alert.id as string;

    const fetched = await json<AlertAnswer>(await server.call(`/v1/alerts/${id}`, { key }));
    expect(fetched.body.alert.id).toBe(id);
    const patched = await json<AlertAnswer>(
      await server.call(`/v1/alerts/${id}`, {
        method: "PATCH",
        key,
        json: { threshold: current.value - 1, cooldown_seconds: 3600 },
      }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.alert).toMatchObject({
      threshold: current.value - 1,
      cooldown_seconds: 3600,
      state: { firing: true },
    });
    const deleted = await json<Deleted>(await server.call(`/v1/alerts/${id}`, { method: "DELETE", key }));
    expect(deleted.body.deleted).toBe(id);
    expect((await server.call(`/v1/alerts/${id}`, { key })).status).toBe(404);
  });

  test("lists newest first, a page at a time", async () => {
    const { key } = await server.accountWithKey("starter");
    const ids: string[] = [];
    for (const threshold of [1, 2, 3]) {
      ids.push(
        (
          await json<AlertAnswer>(
            await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(threshold) }),
          )
        ).body.alert.id,
      );
    }
    const first = await json<AlertList>(await server.call("/v1/alerts?limit=2", { key }));
    expect(first.body.alerts.map((a) => a.id)).toEqual(ids.slice(1).reverse());
    const second = await json<AlertList>(
      await server.call(`/v1/alerts?limit=2&cursor=${first.body.next_cursor}`, { key }),
    );
    expect(second.body.alerts.map((a) => a.id)).toEqual(ids.slice(0, 1));
    expect(second.body.next_cursor).toBeNull();
  });

  test("another account's alert is a 404, for reading, changing and deleting alike", async () => {
    const owner = await server.accountWithKey("starter");
    const other = await server.accountWithKey("professional");
    const id = (
      await json<AlertAnswer>(await server.call("/v1/alerts", { method: "POST", key: owner.key, json: dieselAlert(9) }))
    ).body.alert.id;
    for (const init of [{}, { method: "PATCH", json: { threshold: 1 } }, { method: "DELETE" }]) {
      const reply = await json<Refusal>(await server.call(`/v1/alerts/${id}`, { ...init, key: other.key }));
      expect(reply.status).toBe(404);
      expect(reply.body.error).toBe("NOT_FOUND");
    }
    expect((await json<AlertList>(await server.call("/v1/alerts", { key: other.key }))).body.alerts).toEqual([]);
    expect((await server.call(`/v1/alerts/${id}`, { key: owner.key })).status).toBe(200);
  });

  test("what can never be priced is refused at creation", async () => {
    const { key } = await server.accountWithKey("starter");
    const lane = { metric: "rate_per_mile", origin: "Qzxv, ZZ", destination: "Dallas, TX", equipment: "DRY_VAN" };
    const unresolved = await json<Refusal>(
      await server.call("/v1/alerts", {
        method: "POST",
        key,
        json: { condition: lane, direction: "BELOW", threshold: 2 },
      }),
    );
    expect(unresolved.status).toBe(422);
    expect(unresolved.body).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "condition.origin" });
    const missing = await json<Refusal>(
      await server.call("/v1/alerts", {
        method: "POST",
        key,
        json: { condition: { metric: "total_cost", origin: "Chicago, IL" }, direction: "ABOVE", threshold: 2 },
      }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      "condition.destination",
      "condition.equipment",
    ]);
    const mixed = await json<Refusal>(
      await server.call("/v1/alerts", {
        method: "POST",
        key,
        json: {
          condition: { metric: "diesel_price", region: "PADD3", origin: "Chicago, IL" },
          direction: "ABOVE",
          threshold: 2,
        },
      }),
    );
    expect(mixed.body.details).toEqual([{ field: "condition.origin", problem: "does not apply to diesel_price" }]);
    expect((await json<AlertList>(await server.call("/v1/alerts", { key }))).body.alerts).toEqual([]);
  });

  test("a lane alert is priced exactly as rate-lookup prices the lane", async () => {
    const { key } = await server.accountWithKey("starter");
    const lane = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "REEFER" };
    const quote = await json<Quote>(await server.call("/v1/rates/lookup", { method: "POST", key, json: lane }));
    const alert = await json<AlertAnswer>(
      await server.call("/v1/alerts", {
        method: "POST",
        key,
        json: { condition: { metric: "total_cost", ...lane }, direction: "CROSSES", threshold: 2000 },
      }),
    );
    expect(alert.body.measurement.value).toBe(quote.body.total_cost);
    expect(alert.body.measurement.factor_versions).toEqual(quote.body.factor_versions);
  });

  test("diesel_change_percent is the week-over-week change of the region's weekly price, from both weeks' figures", async () => {
    const { key } = await server.accountWithKey("starter");
    const view = server.runtime.reference.view("2026-10-15", server.clock.now());
    const [lastButOne, last] = view.history(dieselSeriesId("NUS")).slice(-2);
    const before = defined(lastButOne, "the week before the latest");
    const latest = defined(last, "the latest week");
    const created = await json<AlertAnswer>(
      await server.call("/v1/alerts", {
        method: "POST",
        key,
        json: { condition: { metric: "diesel_change_percent", region: "NATIONAL" }, direction: "ABOVE", threshold: 5 },
      }),
    );
    expect(created.body.measurement.value).toBeCloseTo(((latest.value - before.value) / before.value) * 100, 2);
    expect(
      created.body.measurement.factor_versions.map((f: { observation_date: string }) => f.observation_date),
    ).toEqual([before.observedOn, latest.observedOn]);
  });

  test(`the tier caps the number of alerts (starter ${MAX_ALERTS_BY_TIER.starter}) with a 409`, async () => {
    const { key } = await server.accountWithKey("starter");
    for (let i = 0; i < MAX_ALERTS_BY_TIER.starter; i++) {
      expect((await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(i) })).status).toBe(200);
    }
    const refused = await json<Refusal>(
      await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(99) }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: "ALERT_LIMIT_REACHED",
      limit: MAX_ALERTS_BY_TIER.starter,
      current_tier: "starter",
      upgrade_url: "/pricing",
    });
  });

  test("a Starter key scoped to rate-lookup gets 403 SCOPE_REQUIRED; an Explorer key gets TIER_REQUIRED", async () => {
    const scoped = await server.accountWithKey("starter", ["rate-lookup"]);
    const denied = await json<Refusal>(await server.call("/v1/alerts", { key: scoped.key }));
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      error: "SCOPE_REQUIRED",
      required_scope: "rate-alerts",
      key_scopes: ["rate-lookup"],
    });
    const explorer = await server.accountWithKey("explorer");
    const tier = await json<Refusal>(
      await server.call("/v1/alerts", { method: "POST", key: explorer.key, json: dieselAlert(1) }),
    );
    expect(tier.status).toBe(403);
    expect(tier.body).toMatchObject({
      error: "TIER_REQUIRED",
      required_tier: "starter",
      current_tier: "explorer",
      upgrade_url: "/pricing",
      auth_obj_id: explorer.authObjId,
    });
  });

  test("invoke obeys the tier and scope rules for every name that reaches rate-alerts", async () => {
    const names = ["rate-alerts", "rate-alerts.create", "rate-alerts_create", "rate-alerts.nope", "rate-alerts_list"];
    const explorer = await server.accountWithKey("explorer");
    const scoped = await server.accountWithKey("starter", ["rate-lookup"]);
    const starter = await server.accountWithKey("starter");
    for (const name of names) {
      const path = `/v1/agent/invoke/${name}`;
      const anonymous = await json<Refusal>(await server.call(path, { method: "POST", json: {} }));
      expect([name, anonymous.status, anonymous.body.error]).toEqual([name, 401, "MISSING_API_KEY"]);
      const tier = await json<Refusal>(
        await server.call(path, { method: "POST", key: explorer.key, json: dieselAlert(1) }),
      );
      expect([name, tier.status, tier.body.error, tier.body.required_tier]).toEqual([
        name,
        403,
        "TIER_REQUIRED",
        "starter",
      ]);
      const scope = await json<Refusal>(await server.call(path, { method: "POST", key: scoped.key, json: {} }));
      expect([name, scope.status, scope.body.error]).toEqual([name, 403, "SCOPE_REQUIRED"]);
    }
    const operations = [
      "rate-alerts.create",
      "rate-alerts.list",
      "rate-alerts.get",
      "rate-alerts.update",
      "rate-alerts.delete",
      "rate-alerts.evaluate",
    ];
    for (const name of ["rate-alerts", "rate-alerts.nope"]) {
      const chooser = await json<Refusal>(
        await server.call(`/v1/agent/invoke/${name}`, { method: "POST", key: starter.key, json: dieselAlert(1) }),
      );
      expect(chooser.status).toBe(404);
      expect(chooser.body).toMatchObject({ error: "NOT_FOUND", operations });
      expect(chooser.body.message).toContain("rate-alerts.create");
    }
    const listed = await json<AlertList>(
      await server.call("/v1/agent/invoke/rate-alerts_list", { method: "POST", key: starter.key, json: {} }),
    );
    expect(listed.status).toBe(200);
    const unknown = await json<Refusal>(
      await server.call("/v1/agent/invoke/nope", { method: "POST", key: starter.key, json: {} }),
    );
    expect(unknown.status).toBe(404);
  });

  test("the same operations through invoke, MCP and the OpenAPI document", async () => {
    const { key } = await server.accountWithKey("starter");
    const invoked = await json<AlertAnswer>(
      await server.call("/v1/agent/invoke/rate-alerts.create", { method: "POST", key, json: dieselAlert(7) }),
    );
    expect(invoked.status).toBe(200);
    const listed = await json<AlertList>(
      await server.call("/v1/agent/invoke/rate-alerts.list", { method: "POST", key, json: {} }),
    );
    expect(listed.body.alerts).toHaveLength(1);

    const mcp = <Result>(body: unknown) =>
      server
        .call("/mcp", { method: "POST", key, headers: { accept: "application/json, text/event-stream" }, json: body })
        .then((r) => r.json() as Promise<{ result: Result }>);
    const tools = await mcp<{ tools: { name: string; title: string }[] }>({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
    });
    const names = tools.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "rate-alerts_create",
        "rate-alerts_list",
        "rate-alerts_get",
        "rate-alerts_update",
        "rate-alerts_delete",
        "rate-alerts_evaluate",
      ]),
    );
    for (const tool of tools.result.tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.title).not.toBe(tool.name);
    }
    expect(tools.result.tools.find((tool) => tool.name === "rate-alerts_create")?.title).toBe("Rate Alerts: Create");
    const got = await mcp<{ structuredContent: { alert: { id: string } } }>({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "rate-alerts_get", arguments: { id: invoked.body.alert.id } },
    });
    expect(got.result.structuredContent.alert.id).toBe(invoked.body.alert.id);

    const openapi = (await (await server.call("/openapi.json")).json()) as { paths: Record<string, Paths> };
    const alertPaths = defined(openapi.paths["/v1/alerts/{id}"], "the /v1/alerts/{id} paths");
    expect(Object.keys(alertPaths).sort()).toEqual(["delete", "get", "patch"]);
    const patch = defined(alertPaths.patch, "PATCH /v1/alerts/{id}");
    expect(patch.parameters?.filter((parameter) => parameter.in === "path" || parameter.in === "query")).toEqual([
      expect.objectContaining({ name: "id", in: "path", required: true }),
    ]);
    const patchBody = defined(patch.requestBody?.content["application/json"], "the PATCH request body");
    expect(patchBody.schema).toHaveProperty("properties");
    expect(patchBody.schema.properties).not.toHaveProperty("id");
    expect(openapi.paths["/v1/alerts/evaluate"]?.post?.operationId).toBe("rate-alerts.evaluate");
  });
});

describe("evaluation and events", () => {
  test("an alert whose condition already holds fires at creation (event and webhook delivery), then only on changes", async () => {
    const { key, accountId } = await server.accountWithKey("starter");
    const { endpoint } = await createEndpoint(server.runtime.db, accountId, {
      url: "https://hooks.example.com/waybill",
      eventTypes: ["alert.triggered"],
      allowPrivate: false,
      now: server.clock.now(),
    });
    const current = nationalDiesel();
    const created = await json<AlertAnswer>(
      await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(current.value - 0.25) }),
    );
    expect(created.status).toBe(200);
    expect(created.body.alert.state).toMatchObject({ firing: true, last_value: current.value });
    expect(created.body.alert.state.last_fired_at).not.toBeNull();
    expect(created.body.fired).toEqual({ event_id: expect.stringMatching(/^evt_/), type: "alert.triggered" });
    const firedEventId = defined(created.body.fired, "the firing at creation").event_id;

    const events = await json<EventList>(await server.call("/v1/events?type=alert.triggered", { key }));
    expect(events.body.events).toEqual([
      expect.objectContaining({
        id: firedEventId,
        data: expect.objectContaining({ alert_id: created.body.alert.id, measurement: expect.anything() }),
      }),
    ]);
    const { webhookDeliveries } = server.runtime.db.t;
    const deliveries = await server.runtime.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(deliveries.map((delivery) => [delivery.eventId, delivery.status])).toEqual([[firedEventId, "pending"]]);

    // Still true: the next evaluation adds nothing.
    const again = await json<Evaluated>(await server.call("/v1/alerts/evaluate", { method: "POST", key, json: {} }));
    expect(again.body).toMatchObject({ evaluated: 1, fired: [] });

    // CROSSES has no earlier side at creation: its first value is only the baseline.
    const crosses = await json<AlertAnswer>(
      await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(current.value - 0.25, "CROSSES") }),
    );
    expect(crosses.body.fired).toBeUndefined();
    expect(crosses.body.alert.state.firing).toBe(false);

    // A paused alert whose new rule holds does not fire until it is evaluated enabled.
    const paused = await json<AlertAnswer>(
      await server.call(`/v1/alerts/${crosses.body.alert.id}`, {
        method: "PATCH",
        key,
        json: { direction: "BELOW", threshold: current.value + 1, enabled: false },
      }),
    );
    expect(paused.body.fired).toBeUndefined();
    const resumed = await json<AlertAnswer>(
      await server.call(`/v1/alerts/${crosses.body.alert.id}`, { method: "PATCH", key, json: { enabled: true } }),
    );
    expect(resumed.body.fired).toBeUndefined();
    const evaluated = await json<Evaluated>(
      await server.call("/v1/alerts/evaluate", { method: "POST", key, json: {} }),
    );
    expect(evaluated.body.fired).toEqual([
      expect.objectContaining({ alert_id: crosses.body.alert.id, type: "alert.triggered" }),
    ]);
  });

  test("new data crossing the threshold fires once, with the values and factor versions seen, listed in /v1/events", async () => {
    const { key, accountId } = await server.accountWithKey("starter");
    const current = nationalDiesel();
    const alert = (
      await json<AlertAnswer>(
        await server.call("/v1/alerts", { method: "POST", key, json: dieselAlert(current.value + 0.5) }),
      )
    ).body.alert;
    await server.runtime.alertBackground.run(false); // sets the data watermark on a fresh database

    (server.clock as ManualClock).advance(1000);
    const raised = current.value + 0.75;
    await appendObservations(
      server.runtime.db,
      { importId: `imp_test_${Date.now()}`, source: "eia", fileName: "revision.csv", fileSha256: "0".repeat(64) },
      [{ seriesId: current.seriesId, observedOn: current.observedOn, value: raised }],
      server.clock.now(),
    );
    server.runtime.reference.reload();
    (server.clock as ManualClock).advance(1000);
    const run = await server.runtime.alertBackground.run(false);
    expect(run.dataUpdated).toBe(true);
    expect(defined(run.outcomes.get(accountId), "the account's outcome").fired).toEqual([
      expect.objectContaining({ alert_id: alert.id, type: "alert.triggered", value: raised }),
    ]);

    await setTier(server.runtime.db, accountId, "explorer"); // below Starter: kept, not evaluated
    expect((await server.runtime.alertBackground.run(true)).outcomes.has(accountId)).toBe(false);
    await setTier(server.runtime.db, accountId, "starter");

    const onDemand = await json<Evaluated>(await server.call("/v1/alerts/evaluate", { method: "POST", key, json: {} }));
    expect(onDemand.body).toMatchObject({ evaluated: 1, fired: [], failed: [] }); // still above: no second trigger

    const listed = await json<EventList>(await server.call("/v1/events?type=alert.triggered", { key }));
    expect(listed.body.events).toHaveLength(1);
    const event = defined(listed.body.events[0], "the alert.triggered event");
    expect(event.data).toMatchObject({
      alert_id: alert.id,
      threshold: current.value + 0.5,
      measurement: { value: raised },
    });
    expect(event.data.measurement?.factor_versions).toEqual([
      expect.objectContaining({ series_id: current.seriesId, value: raised }),
    ]);
    const all = await json<EventList>(await server.call("/v1/events", { key }));
    expect(all.body.events.map((e: { type: string }) => e.type)).toEqual([
      "key.created",
      "data.updated",
      "alert.triggered",
    ]);
    const after = await json<EventList>(await server.call(`/v1/events?after=${all.body.next_cursor}`, { key }));
    expect(after.body.events).toEqual([]);
    const bad = await json<Refusal>(await server.call("/v1/events?type=nope", { key }));
    expect(bad.status).toBe(400);
  });
});
