import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryInEmptyFolder, runCli, startBinary } from "../support/binary.ts";
import { embeddedNetworkAsGeoJson } from "../support/road-geojson.ts";
import { CORRIDOR_ROADS } from "../support/road-corridor.ts";

let dir: string;
let exe: string;
beforeAll(async () => {
  ({ dir, exe } = await binaryInEmptyFolder());
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the compiled binary, alone in an empty folder", () => {
  test("starts on a real port, answers the probes, creates only its database, and stops on SIGTERM", async () => {
    const server = await startBinary(exe, ["--db", "./waybill.db"], { cwd: dir });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('waybill_http_requests_total{method="GET",route="/healthz",status="200"} 1');
    expect(metrics).toContain("waybill_http_request_duration_seconds_bucket");
    expect(metrics).toContain("process_resident_memory_bytes");
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.output()).toContain("stopped");
    expect(readdirSync(dir).sort()).toEqual(["waybill", "waybill.db", "waybill.db.lock"].sort());
  }, 60_000);

  test("a second start on the same file works (migrations are idempotent)", async () => {
    const server = await startBinary(exe, ["--db", "./waybill.db"], { cwd: dir });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await server.stop("SIGINT")).toBe(0);
  }, 60_000);

  test("WAYBILL_DB and WAYBILL_PORT configure it without flags; a bunfig.toml in the folder is ignored", async () => {
    writeFileSync(join(dir, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
    writeFileSync(join(dir, "evil.ts"), 'console.log("PRELOADED"); process.exit(7);\n');
    const server = await startBinary(exe, [], { cwd: dir, env: { WAYBILL_DB: "./env.db" } });
    expect(server.output()).toContain(join(dir, "env.db"));
    expect(server.output()).not.toContain("PRELOADED");
    expect(await server.stop()).toBe(0);
    rmSync(join(dir, "bunfig.toml"));
    rmSync(join(dir, "evil.ts"));
  }, 60_000);

  test("the CLI manages accounts and keys with --json and trustworthy exit codes", () => {
    const created = runCli(
      exe,
      ["accounts", "create", "--email", "Ops@Example.com", "--tier", "starter", "--json", "--db", "cli.db"],
      dir,
    );
    expect(created.exitCode).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "ops@example.com", tier: "starter" });

    const key = runCli(
      exe,
      ["keys", "create", "--email", "ops@example.com", "--scopes", "rate-lookup", "--json", "--db", "cli.db"],
      dir,
    );
    expect(key.exitCode).toBe(0);
    expect(JSON.parse(key.stdout).key).toMatch(/^wbk_[0-9a-f]{64}$/);

    const badScope = runCli(
      exe,
      ["keys", "create", "--email", "ops@example.com", "--scopes", "teleport", "--db", "cli.db"],
      dir,
    );
    expect(badScope.exitCode).toBe(2); // an unknown scope is a bad argument;
    expect(badScope.stderr).toContain("valid scopes: rate-lookup");

    const tier = runCli(
      exe,
      ["accounts", "set-tier", "--email", "ops@example.com", "--tier", "professional", "--db", "cli.db"],
      dir,
    );
    expect(tier.exitCode).toBe(0);
    const list = JSON.parse(runCli(exe, ["accounts", "list", "--json", "--db", "cli.db"], dir).stdout);
    expect(list.accounts[0]).toMatchObject({ email: "ops@example.com", tier: "professional" });

    expect(runCli(exe, ["keys", "revoke", "--email", "ops@example.com", "--db", "cli.db"], dir).exitCode).toBe(0);
    expect(runCli(exe, ["keys", "revoke", "--email", "ops@example.com", "--db", "cli.db"], dir).exitCode).toBe(1);
    expect(
      runCli(exe, ["accounts", "set-tier", "--email", "nobody@example.com", "--tier", "starter", "--db", "cli.db"], dir)
        .exitCode,
    ).toBe(1);
  });

  test("bad input is one line and a non-zero exit, never a stack trace", async () => {
    const cases = [
      { args: ["serve", "--colour", "blue"], code: 2, says: "colour" },
      { args: ["frobnicate"], code: 2, says: "unknown command" },
      { args: ["serve", "--port", "99999"], code: 2, says: "not a port" },
      { args: ["serve", "--db", "./missing/folder/w.db", "--port", "0"], code: 1, says: "does not exist" },
      { args: ["serve", "--db", "/proc/waybill.db", "--port", "0"], code: 1, says: "cannot open database" },
      {
        args: ["accounts", "create", "--email", "x@y.io", "--tier", "platinum", "--db", "bad.db"],
        code: 2,
        says: "Unknown tier",
      },
      {
        args: ["accounts", "create", "--email", "not-an-email", "--db", "bad.db"],
        code: 2,
        says: "not an email address",
      },
      { args: ["serve", "--log-format", "xml", "--port", "0"], code: 2, says: "not a log format" },
    ];
    for (const { args, code, says } of cases) {
      const result = runCli(exe, args, dir);
      expect(result.exitCode).toBe(code);
      expect(result.stderr).toContain(says);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\bat .*:\d+:\d+/);
    }
  }, 60_000);

  test("a port already in use is refused in one line", async () => {
    const blocker = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const result = runCli(exe, ["serve", "--port", String(blocker.port), "--db", "port.db"], dir);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain("already in use");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      blocker.stop(true);
    }
  });

  const APP = "https://app.example.com";

  test("serves the docs from inside itself and keeps the HTTP conventions", async () => {
    expect(
      runCli(exe, ["accounts", "create", "--email", "api@example.com", "--tier", "starter", "--db", "api.db"], dir)
        .exitCode,
    ).toBe(0);
    const key = JSON.parse(
      runCli(exe, ["keys", "create", "--email", "api@example.com", "--json", "--db", "api.db"], dir).stdout,
    ).key as string;
    const server = await startBinary(
      exe,
      ["--db", "api.db", "--cors-origins", APP, "--public-url", "https://rates.example.com"],
      { cwd: dir },
    );
    try {
      const bundle = await fetch(`${server.url}/docs/assets/scalar.js`);
      expect(bundle.status).toBe(200);
      expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
      expect(await (await fetch(`${server.url}/llms.txt`)).text()).toContain(
        "https://rates.example.com/v1/rates/lookup",
      );

      const preflight = await fetch(`${server.url}/v1/rates/lookup`, {
        method: "OPTIONS",
        headers: { origin: APP, "access-control-request-method": "POST" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(APP);

      const call = () =>
        fetch(`${server.url}/v1/rates/lookup`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "idempotency-key": "binary-retry",
            "x-request-id": "binary-test-1",
          },
          body: JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" }),
        });
      const first = await call();
      expect(first.status).toBe(200);
      expect(first.headers.get("x-request-id")).toBe("binary-test-1");
      const retry = await call();
      expect(retry.headers.get("idempotency-replayed")).toBe("true");
      const answered = (await first.json()) as {
        receipt_id: string;
        data_as_of: { as_of: string; series: { series_id: string; age_days: number }[] };
        lane_balance: {
          origin_district: string | null;
          origin_market: string | null;
          destination_market: string | null;
          level: number;
          outbound: number;
          inbound: number;
          factor: number;
        };
        breakdown: { lane_balance: number };
      };
      // The lane-balance factor is in the answer and its breakdown (docs/rate-model.md, "Lane balance"): the markets are
      // named, and a dry-van load carries none (no public evidence of direction for it).
      expect(answered.lane_balance).toMatchObject({
        origin_district: null,
        origin_market: "UPPER_MIDWEST",
        destination_market: "TEXAS",
        factor: 1,
      });
      expect(answered.lane_balance.factor).toBeCloseTo(
        answered.lane_balance.level * answered.lane_balance.outbound * answered.lane_balance.inbound,
        4,
      );
      expect(Math.sign(answered.breakdown.lane_balance)).toBe(Math.sign(answered.lane_balance.factor - 1));
      expect(((await retry.json()) as { receipt_id: string }).receipt_id).toBe(answered.receipt_id);
      // The answer says how old its figures are (docs/api.md#data-age).
      expect(answered.data_as_of.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(answered.data_as_of.series.length).toBeGreaterThan(0);
      expect(
        answered.data_as_of.series.every((series) => series.series_id.length > 0 && Number.isInteger(series.age_days)),
      ).toBe(true);
      const usage = (await (
        await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { quota: { used: number } };
      expect(usage.quota.used).toBe(1);

      const wrongMethod = await fetch(`${server.url}/v1/rates/lookup`, { headers: { authorization: `Bearer ${key}` } });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get("allow")).toContain("POST");

      // The Interstates go round by Casa Grande where trucks take AZ-85: the answer is bounded and says where (docs/rate-model.md).
      const bounded = await fetch(`${server.url}/v1/rates/lookup`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ origin: "Phoenix, AZ", destination: "San Diego, CA", equipment: "DRY_VAN" }),
      });
      expect(bounded.status).toBe(200);
      const boundedAnswer = (await bounded.json()) as {
        distance_method: string;
        distance: { bound_reason?: string };
        confidence: { reasons: string[] };
      };
      expect(boundedAnswer.distance_method).toBe("ROAD_NETWORK_BOUNDED");
      expect(boundedAnswer.distance.bound_reason).toMatch(/goes \d+ mi round between/);
      expect(boundedAnswer.confidence.reasons.join("; ")).toContain("road miles bounded");
    } finally {
      await server.stop("SIGTERM");
    }
  }, 120_000);
});

test("an operator imports a road network with the CLI, promotes it after its checks, and the next lookup names it", async () => {
  const db = "roads.db";
  writeFileSync(join(dir, "corridor.geojson"), JSON.stringify(CORRIDOR_ROADS));
  writeFileSync(join(dir, "roads.geojson"), JSON.stringify(embeddedNetworkAsGeoJson()));
  writeFileSync(
    join(dir, "points.geojson"),
    JSON.stringify({
      type: "FeatureCollection",
      features: [{ type: "Feature", geometry: { type: "Point", coordinates: [-90, 40] } }],
    }),
  );

  const refused = runCli(exe, ["data", "import", "roads", "points.geojson", "--db", db], dir);
  expect(refused.exitCode).toBe(1);
  expect(refused.stderr.trim().split("\n")).toHaveLength(1);
  expect(refused.stderr).toContain(
    "points.geojson is not a usable road network: feature 0: geometry must be a LineString",
  );

  const imported = runCli(exe, ["data", "import", "roads", "roads.geojson", "--json", "--db", db], dir);
  expect(imported.exitCode).toBe(0);
  const { network, added } = JSON.parse(imported.stdout) as { network: string; added: boolean };
  expect(network).toMatch(/^imported-r[0-9]+-[0-9a-f]{12}$/);
  expect(added).toBe(true);
  expect(
    JSON.parse(runCli(exe, ["data", "import", "roads", "roads.geojson", "--json", "--db", db], dir).stdout).added,
  ).toBe(false);
  // A one-road corridor is staged with a failing report and cannot be promoted.
  const corridor = runCli(exe, ["data", "import", "roads", "corridor.geojson", "--db", db], dir);
  expect(corridor.stdout).toContain("FAIL coverage of the lower 48");
  // The file was streamed; the report says how much memory the import took against its cap.
  expect(corridor.stdout).toMatch(/ok {3}memory: \d+ MiB more resident at most .*cap 2048 MiB/);
  const corridorVersion = /staged road network (\S+)/.exec(corridor.stdout)?.[1] ?? "";
  const refusedPromotion = runCli(exe, ["data", "roads", "promote", corridorVersion, "--db", db], dir);
  expect(refusedPromotion.exitCode).toBe(1);
  expect(refusedPromotion.stderr).toContain("failed its checks and cannot price lanes");
  const promoted = runCli(exe, ["data", "roads", "promote", network, "--db", db], dir);
  expect(promoted.exitCode).toBe(0);
  expect(promoted.stdout).toMatch(/^promoted road network imported-r\d+-[0-9a-f]{12} at /);

  expect(
    runCli(exe, ["accounts", "create", "--email", "ops@example.com", "--tier", "starter", "--db", db], dir).exitCode,
  ).toBe(0);
  const key = JSON.parse(
    runCli(exe, ["keys", "create", "--email", "ops@example.com", "--json", "--db", db], dir).stdout,
  ).key as string;
  const server = await startBinary(exe, ["--db", db], { cwd: dir });
  try {
    const response = await fetch(`${server.url}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      distance_method: string;
      distance: { road_network: string };
      miles: number;
    };
    expect(answer.distance_method).toBe("ROAD_NETWORK");
    expect(answer.distance.road_network).toBe(network);

    const island = await fetch(`${server.url}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ origin: "Honolulu, HI", destination: "Los Angeles, CA", equipment: "DRY_VAN" }),
    });
    expect(island.status).toBe(422);
    expect(await island.json()).toMatchObject({ error: "NOT_ROAD_CONNECTED", field: "origin" });
  } finally {
    await server.stop();
  }
}, 120_000);
