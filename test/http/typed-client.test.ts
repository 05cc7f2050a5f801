import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testInstance, type TestInstance } from "../support/instance.ts";

/**
 * What an integrator does with /openapi.json: generate types with openapi-typescript's default flags,
 * write a program with openapi-fetch that calls three skills (a POST body with only its required
 * fields, a GET with a query, a POST that names a region), reads the limit headers and a typed
 * refusal with its doc_url, type-check it strictly, and run it against the real app on a loopback port.
 */
const ROOT = join(import.meta.dir, "../..");
const WORK = join(ROOT, ".tmp", "typed-client");
const BIN = join(ROOT, "node_modules", ".bin");

const PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./schema";

const client = createClient<paths>({ baseUrl: process.env.BASE_URL, headers: { Authorization: \`Bearer \${process.env.API_KEY}\` } });

// Only the required fields: defaulted inputs (mode, include_fuel_surcharge) stay optional to send.
const lookup = await client.POST("/v1/rates/lookup", {
  body: { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" },
});
if (lookup.error) throw new Error(\`\${lookup.error.error}: \${lookup.error.message}\`);
const receiptId: string = lookup.data.receipt_id;
const ratePerMile: number = lookup.data.rate_per_mile;

const trends = await client.GET("/v1/diesel/trends", { params: { query: { region: "PADD3", weeks: 8 } } });
if (trends.error) throw new Error(trends.error.message);
const latestDiesel: number = trends.data.latest.price;

const surcharge = await client.POST("/v1/fuel/surcharge", { body: { region: "NATIONAL" } });
if (surcharge.error) throw new Error(surcharge.error.message);
const perMile: number = surcharge.data.surcharge_per_mile;
const remaining = Number(surcharge.response.headers.get("X-RateLimit-Remaining"));

// Explorer has 3 calls a minute: the fourth is a typed 429 with its documentation link.
const limited = await client.POST("/v1/fuel/surcharge", { body: { region: "NATIONAL" } });
const refusal = limited.error;
if (!refusal || refusal.error !== "RATE_LIMITED") throw new Error("expected RATE_LIMITED");
const retryAfter: number = refusal.retry_after;
const docUrl: string = refusal.doc_url;

console.log(JSON.stringify({ receiptId, ratePerMile, latestDiesel, perMile, remaining, retryAfter, docUrl,
  retryAfterHeader: limited.response.headers.get("Retry-After") }));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    types: ["bun"],
    skipLibCheck: true,
  },
  files: ["program.ts"],
};

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ listen: true });
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
});
afterAll(async () => {
  await server.stop();
  rmSync(WORK, { recursive: true, force: true });
});

/** Asynchronous on purpose: the program calls the server this very process runs. */
async function run(command: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn(command, { cwd: WORK, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, output: `${stdout}${stderr}` };
}

test("a client generated from /openapi.json with default flags compiles and calls three skills", async () => {
  writeFileSync(join(WORK, "openapi.json"), await (await server.call("/openapi.json")).text());
  // openapi-typescript's default flags: what an integrator runs first.
  const generate = await run([join(BIN, "openapi-typescript"), "openapi.json", "-o", "schema.d.ts"]);
  expect({ step: "openapi-typescript", ...generate, output: generate.exitCode === 0 ? "" : generate.output }).toEqual({
    step: "openapi-typescript",
    exitCode: 0,
    output: "",
  });

  writeFileSync(join(WORK, "program.ts"), PROGRAM);
  writeFileSync(join(WORK, "tsconfig.json"), JSON.stringify(TSCONFIG));
  const compile = await run([join(BIN, "tsc"), "-p", "tsconfig.json"]);
  expect({ step: "tsc", exitCode: compile.exitCode, output: compile.output }).toEqual({
    step: "tsc",
    exitCode: 0,
    output: "",
  });

  const { key } = await server.accountWithKey("explorer");
  const execution = await run([process.execPath, "program.ts"], { BASE_URL: server.url, API_KEY: key });
  expect({ exitCode: execution.exitCode, output: execution.exitCode === 0 ? "" : execution.output }).toEqual({
    exitCode: 0,
    output: "",
  });
  const printed = JSON.parse(execution.output);
  expect(printed).toMatchObject({
    receiptId: expect.stringMatching(/^rcpt_[0-9A-Z]{26}$/),
    remaining: 0,
    docUrl: "/docs/errors#RATE_LIMITED",
    retryAfterHeader: String(printed.retryAfter),
  });
  for (const figure of ["ratePerMile", "latestDiesel", "perMile"]) expect(printed[figure]).toBeGreaterThan(0);
}, 120_000);
