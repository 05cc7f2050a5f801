import { Type } from "@sinclair/typebox";
import type { Principal } from "../../src/access/principal.ts";
import type { Db } from "../../src/db/client.ts";
import type { AppendedReceipt, ReceiptEntry } from "../../src/receipts/ledger.ts";
import type { ReceiptLog } from "../../src/receipts/log/log.ts";
import type { Observation, ReferenceData, ReferenceView } from "../../src/reference/storage/view.ts";
import { defineSkill, type AnyReadingDeclaration, type AnyReadingSkill } from "../../src/skills/types.ts";

/** Store observations the way imports do (data_imports + observations rows), and serve them as ReferenceData. */
export function seedReference(
  db: Db,
  seeded: (Omit<Observation, "publishedOn"> & { publishedOn?: string })[],
): ReferenceData {
  const observations: Observation[] = seeded.map((o) => ({ ...o, publishedOn: o.publishedOn ?? o.observedOn }));
  // One import row per import id, stamped with its first observation's fetch time (later ones are ignored).
  for (const { importId, fetchedAt } of observations) {
    db.$client
      .query(
        "INSERT OR IGNORE INTO data_imports (id, source, file_name, file_sha256, imported_at, rows_added, rows_skipped) VALUES (?, 'eia', ?, 'x', ?, 0, 0)",
      )
      .run(importId, `${importId}.csv`, fetchedAt);
  }
  for (const o of observations) {
    db.$client
      .query("INSERT INTO observations (series_id, observed_on, value, import_id, fetched_at) VALUES (?, ?, ?, ?, ?)")
      .run(o.seriesId, o.observedOn, o.value, o.importId, o.fetchedAt);
  }
  const all = [...observations];
  return {
    view(asOf, knownAt): ReferenceView {
      // Per date, the version fetched last among those known at knownAt.
      const visible = (seriesId: string) => {
        const byDate = new Map<string, Observation>();
        for (const o of all) {
          if (o.seriesId !== seriesId || o.observedOn > asOf || o.fetchedAt > knownAt) continue;
          const held = byDate.get(o.observedOn);
          if (!held || held.fetchedAt <= o.fetchedAt) byDate.set(o.observedOn, o);
        }
        return [...byDate.values()].sort((a, b) => a.observedOn.localeCompare(b.observedOn));
      };
      return {
        asOf,
        knownAt,
        latest: (seriesId) => visible(seriesId).at(-1),
        history: (seriesId, from) => visible(seriesId).filter((o) => !from || o.observedOn >= from),
        seriesIds: (prefix) => [...new Set(all.map((o) => o.seriesId))].filter((id) => id.startsWith(prefix)).sort(),
      };
    },
    coverage: () => undefined,
  };
}

const LaneInput = Type.Object({ origin: Type.String(), destination: Type.String(), equipment: Type.String() });
const LaneOutput = Type.Object({
  rate_per_mile: Type.Number(),
  diesel: Type.Number(),
  origin: Type.String(),
  destination: Type.String(),
});

/** A rate-lookup stand-in whose answer depends on the diesel figure in its data view, and on `perGallon`. */
export function dieselRateSkill(perGallon = 0.5): AnyReadingSkill {
  return defineSkill({
    name: "rate-lookup",
    minimumTier: "explorer",
    description: "test stand-in",
    rest: { method: "POST", path: "/v1/rates/lookup" },
    input: LaneInput,
    output: LaneOutput,
    replayable: true,
    handler(input, { data }) {
      const diesel = data.latest("DIESEL");
      if (!diesel) throw new Error("no diesel figure");
      return {
        answer: {
          rate_per_mile: Math.round((1 + diesel.value * perGallon) * 1000) / 1000,
          diesel: diesel.value,
          origin: input.origin,
          destination: input.destination,
        },
        factorVersions: [
          {
            series_id: diesel.seriesId,
            value: diesel.value,
            observation_date: diesel.observedOn,
            import_id: diesel.importId,
          },
        ],
        modelVersion: `diesel-rate/${perGallon}`,
      };
    },
  });
}

/** What the pipeline does for an answered call, minus HTTP and metering: run the handler, then append in a group-commit batch. */
export async function answerAndRecord(
  db: Db,
  ledger: { append(entry: ReceiptEntry): Promise<AppendedReceipt>; ledger: { log: ReceiptLog } },
  reference: ReferenceData,
  skill: AnyReadingDeclaration,
  principal: Principal,
  request: Record<string, unknown>,
  at: number,
): Promise<{ answer: unknown; receipt: AppendedReceipt }> {
  const asOf = new Date(at).toISOString().slice(0, 10);
  const result = await skill.handler(request as never, {
    data: reference.view(asOf, at),
    caller: principal,
    instance: { db, reference, skills: [skill], log: ledger.ledger.log },
  });
  const receipt = await ledger.append({
    issuedAt: at,
    skill: skill.name,
    principal,
    request,
    response: result.answer,
    factorVersions: result.factorVersions,
    modelVersion: result.modelVersion,
    asOf,
    knownAt: at,
    usage: { requestId: `req_reference_${at}`, latencyMs: 1 },
  });
  return { answer: result.answer, receipt };
}
