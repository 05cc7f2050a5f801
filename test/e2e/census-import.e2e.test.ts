import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeCensusFile, type ExpectedCensus } from "../reference/census-file.ts";
import { binaryInEmptyFolder, runCli, startBinary } from "../support/binary.ts";
import { defined } from "../support/defined.ts";

describe("waybill data import fmcsa, on the compiled binary", () => {
  let dir: string;
  let exe: string;
  let expected: ExpectedCensus;

  beforeAll(async () => {
    ({ dir, exe } = await binaryInEmptyFolder());
    expected = await writeCensusFile(join(dir, "FMCSA_CENSUS1_2026Sep.txt"), { rows: 70_000, malformedEvery: 500 });
    await writeCensusFile(join(dir, "census_garbage_2026-09-01.csv"), { rows: 3_000, malformedEvery: 2 });
  }, 120_000);

  const run = (...args: string[]) => runCli(exe, [...args, "--db", "waybill.db"], dir);

  test("imports the aggregates with JSON progress on stderr and one JSON result on stdout", () => {
    const imported = run("data", "import", "fmcsa", "FMCSA_CENSUS1_2026Sep.txt", "--json");
    expect(imported.exitCode).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result).toMatchObject({
      snapshot_date: "2026-09-01",
      rows: 70_000,
      malformed: 140,
      counted: expected.counted,
      added: 468,
    });
    const progress = imported.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).progress);
    expect(progress.at(-1)).toMatchObject({ percent: 100 });

    const status = JSON.parse(run("data", "status", "--json").stdout) as {
      series: { series_id: string; latest: string; latest_value: number }[];
    };
    const tx = status.series.find((s) => s.series_id === "FMCSA_CENSUS_CARRIERS_TX_A");
    expect(tx).toMatchObject({
      latest: "2026-09-01",
      latest_value: defined(expected.cells.get("TX_A"), 'expected.cells.get("TX_A")').carriers,
    });
  }, 120_000);

  test("a mostly malformed file is refused in one line and nothing is added", () => {
    const before = run("data", "status", "--json").stdout;
    const refused = run("data", "import", "fmcsa", "census_garbage_2026-09-01.csv");
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/1500 of 3000 rows are malformed .*nothing was imported/);
    expect(run("data", "status", "--json").stdout).toBe(before);
  }, 60_000);

  test("a --date that is not a date is a usage error (exit 2)", () => {
    const usage = run("data", "import", "fmcsa", "FMCSA_CENSUS1_2026Sep.txt", "--date", "Sept");
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain("--date must be YYYY-MM-DD");
  });

  test("a served carrier-capacity answer reports the imported census for the area", async () => {
    const server = await startBinary(exe, ["--db", "waybill.db"], { cwd: dir });
    try {
      expect(run("accounts", "create", "--email", "ops@example.com", "--tier", "starter").exitCode).toBe(0);
      const { key } = JSON.parse(
        run("keys", "create", "--email", "ops@example.com", "--scopes", "carrier-capacity", "--json").stdout,
      );
      const response = await fetch(`${server.url}/v1/carriers/capacity`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ area: "TX" }),
      });
      expect(response.status).toBe(200);
      const body = await response.json();
      const tx = ["A", "B", "C"].reduce((sum, op) => sum + (expected.cells.get(`TX_${op}`)?.carriers ?? 0), 0);
      expect(body.supply.census).toMatchObject({ date: "2026-09-01", for_hire: { carriers: tx } });
      expect(body.receipt_id).toMatch(/^rcpt_/);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
