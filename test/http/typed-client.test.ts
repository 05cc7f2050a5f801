import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testInstance, type TestInstance } from "../support/instance.ts";

/**
 * What an integrator does with /openapi.json: generate types with openapi-typescript, write a
 * program with openapi-fetch that reads receipt_id from a rate lookup, type-check it strictly, and
 * run it against the real app on a loopback port.
 */
const ROOT = join(import.meta.dir, "../..");
const WORK = join(ROOT, ".tmp", "typed-client");
const BIN = join(ROOT, "node_modules", ".bin");

const PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./schema";

const client = createClient<paths>({ baseUrl: process.env.BASE_URL, headers: { Authorization: \`Bearer \${process.env.API_KEY}\` } });
const { data, error } = await client.POST("/v1/rates/lookup", {
  body: { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" },
});
if (error) {
  console.error(error.error, error.message);
  process.exit(1);
}
const receiptId: string = data.receipt_id;
const ratePerMile: number = data.rate_per_mile;
console.log(receiptId, ratePerMile);
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

test("a client generated from /openapi.json compiles, reads receipt_id from a rate lookup and runs", async () => {
  writeFileSync(join(WORK, "openapi.json"), await (await server.call("/openapi.json")).text());
  // Optional inputs with a default stay optional for the caller (openapi-typescript 7 would make them required).
  const generate = await run([
    join(BIN, "openapi-typescript"),
    "openapi.json",
    "-o",
    "schema.d.ts",
    "--default-non-nullable=false",
  ]);
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
  expect(execution.exitCode).toBe(0);
  expect(execution.output).toMatch(/^rcpt_[0-9A-Z]{26} \d+(\.\d+)?\n$/);
}, 120_000);
