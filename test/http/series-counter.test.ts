import { describe, expect, test } from "bun:test";
import { Counter, Registry } from "prom-client";
import { SeriesCounter } from "../../src/http/series-counter.ts";

describe("SeriesCounter", () => {
  test("the registry shows it exactly as prom-client's own Counter: series in the order first counted, a counter without labels from the start", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const requests = new Counter({
      name: "t_requests_total",
      help: "Requests.",
      labelNames: ["method", "route", "status"] as const,
      registers: [theirs],
    });
    const plain = new Counter({ name: "t_receipts_total", help: "Receipts.", registers: [theirs] });
    new Counter({
      name: "t_unused_total",
      help: "Never counted.",
      labelNames: ["skill"] as const,
      registers: [theirs],
    });
    const ourRequests = new SeriesCounter("t_requests_total", "Requests.", ours);
    const ourPlain = new SeriesCounter("t_receipts_total", "Receipts.", ours).labels();
    new SeriesCounter("t_unused_total", "Never counted.", ours).labels({ skill: "rate-lookup" });
    const notFound = ourRequests.labels({ method: "GET", route: "/nowhere", status: "404" });
    const answered = ourRequests.labels({ method: "POST", route: "/v1/skills/rate-lookup", status: "200" });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    for (let i = 0; i < 3; i++) {
      requests.inc({ method: "POST", route: "/v1/skills/rate-lookup", status: "200" });
      answered.inc();
      plain.inc();
      ourPlain.inc();
    }
    requests.inc({ method: "GET", route: "/nowhere", status: "404" });
    notFound.inc();
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      't_requests_total{method="POST",route="/v1/skills/rate-lookup",status="200"} 3\nt_requests_total{method="GET",route="/nowhere",status="404"} 1',
    );
    expect(text).toContain("t_receipts_total 3");
    expect(text).not.toContain("t_unused_total{");
  });
});
