import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ManualClock } from "../../src/clock.ts";
import { daysBetween } from "../../src/dates.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

interface DataAsOf {
  as_of: string;
  latest_observation: string | null;
  stalest_observation: string | null;
  max_age_days: number | null;
  series: { series_id: string; latest_observation: string; age_days: number }[];
}

/** Months after the embedded snapshot's last figure: a self-hosted instance nobody has synced. */
const TODAY = "2027-05-20";
let server: TestInstance;
let key: string;
beforeAll(async () => {
  server = await testInstance({ clock: new ManualClock(Date.parse(`${TODAY}T15:00:00Z`)), listen: true });
  key = (await server.accountWithKey("enterprise")).key;
});
afterAll(() => server.stop());

async function answer(path: string, init: RequestInit & { json?: unknown } = {}) {
  const response = await server.call(path, { ...init, key });
  const body = (await response.json()) as Record<string, unknown> & { data_as_of: DataAsOf };
  expect([path, response.status, body.error]).toEqual([path, 200, undefined]);
  return body;
}

/** Every series the answer used, with its newest figure's age counted from the call's day; none of it refused. */
function expectStaleButAnswered(dataAsOf: DataAsOf) {
  expect(dataAsOf.as_of).toBe(TODAY);
  expect(dataAsOf.series.length).toBeGreaterThan(0);
  for (const series of dataAsOf.series) expect(series.age_days).toBe(daysBetween(series.latest_observation, TODAY));
  const dates = dataAsOf.series.map((s) => s.latest_observation).sort();
  expect(dataAsOf.latest_observation).toBe(defined(dates.at(-1), "the last of dates"));
  expect(dataAsOf.stalest_observation).toBe(defined(dates[0], "dates[0]"));
  expect(dataAsOf.max_age_days).toBe(daysBetween(defined(dates[0], "dates[0]"), TODAY));
  // The snapshot stops months before today: every answer is from old figures, and says so.
  expect(daysBetween(defined(dataAsOf.latest_observation, "dataAsOf.latest_observation"), TODAY)).toBeGreaterThan(90);
}

describe("every skill says how old its figures are, and answers months after the shipped data ends", () => {
  test("the snapshot's last figure is months before the clock", async () => {
    expect(
      daysBetween(defined(server.runtime.reference.coverage(), "server.runtime.reference.coverage()").last, TODAY),
    ).toBeGreaterThan(90);
  });

  test("rate-lookup, lane-comparison, rate-forecast, fuel-surcharge, diesel-trends, market-analysis, carrier-capacity", async () => {
    const answers = {
      "rate-lookup": await answer("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS }),
      "lane-comparison": await answer("/v1/lanes/compare", {
        method: "POST",
        json: { lanes: [CHICAGO_TO_DALLAS, { ...CHICAGO_TO_DALLAS, origin: "Denver, CO" }] },
      }),
      "rate-forecast": await answer("/v1/rates/forecast", {
        method: "POST",
        json: { ...CHICAGO_TO_DALLAS, horizon_weeks: 4 },
      }),
      "fuel-surcharge": await answer("/v1/fuel/surcharge", {
        method: "POST",
        json: { region: "NATIONAL", miles: 100 },
      }),
      "diesel-trends": await answer("/v1/diesel/trends?region=NATIONAL&weeks=8"),
      "market-analysis": await answer("/v1/market/analysis", { method: "POST", json: {} }),
      "carrier-capacity": await answer("/v1/carriers/capacity", {
        method: "POST",
        json: { area: "PADD3", equipment: "REEFER" },
      }),
    };
    for (const [skill, body] of Object.entries(answers)) {
      expect([skill, body.data_as_of.series.length > 0]).toEqual([skill, true]);
      expectStaleButAnswered(body.data_as_of);
    }
    // The series listed are the answer's own factor versions, each at its newest date.
    const lookup = answers["rate-lookup"];
    const receipt = (await answer(`/v1/reports/audit?receipt_id=${lookup.receipt_id}`)) as {
      factor_versions?: { series_id: string }[];
    };
    expect(lookup.data_as_of.series.map((s) => s.series_id)).toEqual(
      [...new Set((receipt.factor_versions ?? []).map((f) => f.series_id))].sort(),
    );
  });

  test("audit-report's data is the audited receipt's pinned view, and the replay reproduces data_as_of with the answer", async () => {
    const lookup = await answer("/v1/rates/lookup", {
      method: "POST",
      json: { ...CHICAGO_TO_DALLAS, as_of: "2026-06-30" },
    });
    expect(lookup.data_as_of.as_of).toBe("2026-06-30");
    const audit = (await answer(`/v1/reports/audit?receipt_id=${lookup.receipt_id}`)) as Record<string, unknown> & {
      data_as_of: DataAsOf;
      verification: { reproducible: boolean; reproduction: { answer_matches: boolean } };
      reproduced_response: { data_as_of: DataAsOf };
    };
    expect(audit.data_as_of).toEqual(lookup.data_as_of);
    expect(audit.verification).toMatchObject({ reproducible: true, reproduction: { answer_matches: true } });
    expect(audit.reproduced_response.data_as_of).toEqual(lookup.data_as_of);
  });

  test("a receipt signed before answers carried data_as_of still reproduces; a different answer still does not", async () => {
    const lookup = await answer("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS });
    const audited = (await answer(`/v1/reports/audit?receipt_id=${lookup.receipt_id}`)) as unknown as {
      log: {
        receipt: {
          account_id: string;
          key_id: string;
          auth_obj_id: string;
          tier: "enterprise";
          scopes: null;
          request: unknown;
          factor_versions: [];
          model_version: string;
          as_of: string;
          known_at: string;
        };
      };
      reproduced_response: Record<string, unknown>;
    };
    const signed = audited.log.receipt;
    const { data_as_of: _new, ...asSignedBefore } = audited.reproduced_response;
    const signOld = (response: unknown) =>
      server.runtime.committer.commit(() =>
        server.runtime.ledger.append(server.db, {
          issuedAt: server.clock.now(),
          skill: "rate-lookup",
          principal: {
            accountId: signed.account_id,
            keyId: signed.key_id,
            authObjId: signed.auth_obj_id,
            tier: signed.tier,
            scopes: signed.scopes,
          },
          request: signed.request,
          response,
          factorVersions: signed.factor_versions,
          modelVersion: signed.model_version,
          asOf: signed.as_of,
          knownAt: Date.parse(signed.known_at),
          usage: { requestId: "req_signed_before", latencyMs: 1 },
        }),
      );
    const verification = async (receiptId: string) =>
      (
        (await answer(`/v1/reports/audit?receipt_id=${receiptId}`)) as unknown as {
          verification: { reproducible: boolean };
        }
      ).verification.reproducible;
    expect(await verification((await signOld(asSignedBefore)).id)).toBe(true);
    expect(await verification((await signOld({ ...asSignedBefore, rate_per_mile: 0.01 })).id)).toBe(false);
  });

  test("rate-alerts: an alert priced now says how old the figure is; a list that reads no figures lists no series", async () => {
    const created = await answer("/v1/alerts", {
      method: "POST",
      json: {
        name: "US diesel",
        condition: { metric: "diesel_price", region: "NATIONAL" },
        direction: "ABOVE",
        threshold: 9,
      },
    });
    expectStaleButAnswered(created.data_as_of);
    const listed = await answer("/v1/alerts");
    expect(listed.data_as_of).toEqual({
      as_of: TODAY,
      latest_observation: null,
      stalest_observation: null,
      max_age_days: null,
      series: [],
    });
  });

  test("every transport carries it: invoke, MCP's structured answer and the schemas it is checked against, OpenAPI", async () => {
    const invoked = await answer("/v1/agent/invoke/fuel-surcharge", {
      method: "POST",
      json: { region: "NATIONAL", miles: 100 },
    });
    expectStaleButAnswered(invoked.data_as_of);

    const client = new Client({ name: "waybill-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const { tools } = await client.listTools(); // the client checks structuredContent against these output schemas
    // Every skill's tool; the bid-sheet tools answer with a job, not with figures.
    const skillTools = tools.filter((tool) => !tool.name.startsWith("rate-lookup-batch"));
    expect(skillTools.length).toBeGreaterThan(0);
    expect(
      skillTools.every((tool) =>
        (
          tool.outputSchema?.required ??
          (tool.outputSchema as { anyOf?: { required: string[] }[] }).anyOf?.[0]?.required
        )?.includes("data_as_of"),
      ),
    ).toBe(true);
    const called = await client.callTool({ name: "rate-lookup", arguments: CHICAGO_TO_DALLAS });
    expect(called.isError).toBe(false);
    expectStaleButAnswered((called.structuredContent as { data_as_of: DataAsOf }).data_as_of);
    await client.close();

    const document = (await (await server.call("/openapi.json")).json()) as {
      components: { schemas: Record<string, { required?: string[]; anyOf?: { required: string[] }[] }> };
    };
    const answers = Object.entries(document.components.schemas).filter(([name]) => name.endsWith("Answer"));
    expect(answers.length).toBeGreaterThanOrEqual(14);
    for (const [name, schema] of answers) {
      for (const form of schema.anyOf ?? [schema])
        expect([name, form.required?.includes("data_as_of")]).toEqual([name, true]);
    }
  });
});
