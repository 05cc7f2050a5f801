import { describe, expect, test } from "bun:test";
import { computeAnswer } from "../../src/pipeline/answer-memo.ts";
import { appendObservations } from "../../src/reference/storage/append.ts";
import { retractImport } from "../../src/reference/storage/retract.ts";
import { AnswerBytes } from "../../src/receipts/answer-bytes.ts";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { SKILLS } from "../../src/skills/registry.ts";
import { servedDeclarations, type AnyReadingSkill, type SkillContext } from "../../src/skills/types.ts";
import { LOADED_AT, snapshotReferenceData } from "../reference/helpers.ts";
import { defined } from "../support/defined.ts";
import { skillContext } from "../support/skill-call.ts";

const served = servedDeclarations(SKILLS);
const rateLookup = served.find((skill) => skill.name === "rate-lookup") as AnyReadingSkill;
const DAY = 86_400_000;
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: "2026-09-22" };
/** The origin's PADD 2 diesel series: a new week of it changes the lane's answer. */
const MIDWEST_DIESEL = "EMD_EPD2D_PTE_R20_DPG";

/** A new week of the origin's diesel, stored as its own import. */
const importMidwestDiesel = (db: Parameters<typeof appendObservations>[0], importId: string, value: number) =>
  appendObservations(
    db,
    { importId, source: "eia", fileName: importId, fileSha256: importId },
    [{ seriesId: MIDWEST_DIESEL, observedOn: "2026-09-21", value }],
    LOADED_AT + DAY,
  );

describe("views name their figures", async () => {
  const { db, data } = await snapshotReferenceData();

  test("views past every stored stamp share a name per as-of day; an earlier knownAt has none", () => {
    const name = defined(data.view("2026-09-22", LOADED_AT + DAY).figures, "the figures' name");
    expect(name).toBeString();
    expect(data.view("2026-09-22", LOADED_AT + 2 * DAY).figures).toBe(name);
    expect(data.view("2026-09-23", LOADED_AT + DAY).figures).not.toBe(name);
    expect(data.view("2026-09-22", LOADED_AT - 1).figures).toBeUndefined();
  });

  test("new observations and a retraction each give the figures a new name", async () => {
    const before = defined(data.view("2026-09-22", LOADED_AT + 3 * DAY).figures, "the name before the import");
    await importMidwestDiesel(db, "imp_memo_a", 4.5);
    await data.reload();
    const afterImport = defined(data.view("2026-09-22", LOADED_AT + 3 * DAY).figures, "the name after the import");
    expect(afterImport).not.toBe(before);
    await retractImport(db, "imp_memo_a", "test", LOADED_AT + 2 * DAY);
    await data.reload();
    expect(data.view("2026-09-22", LOADED_AT + 3 * DAY).figures).not.toBe(afterImport);
    // Known before the retraction, the view would still see the import: no name.
    expect(data.view("2026-09-22", LOADED_AT + DAY + 1).figures).toBeUndefined();
  });
});

describe("answers kept per input and figures", () => {
  test("the same lane on the same figures is the same answer, with the bytes and digest a fresh run gives", async () => {
    const { data } = await snapshotReferenceData();
    const context = (knownAt: number) => skillContext(data, data.view(LANE.as_of, knownAt));
    const first = await computeAnswer(rateLookup, LANE, context(LOADED_AT + DAY));
    const again = await computeAnswer(rateLookup, { ...LANE }, context(LOADED_AT + 2 * DAY));
    expect(again).toBe(first);
    const fresh = rateLookup.handler(LANE, context(LOADED_AT + DAY));
    const freshBytes = new AnswerBytes(fresh.answer);
    expect(first.bytes.text).toBe(freshBytes.text);
    expect(first.bytes.sha256).toBe(freshBytes.sha256);
    // What its receipts record: the input and the factor versions as canonical JSON.
    expect(first.canonical).toEqual({ request: canonicalJson(LANE), factors: canonicalJson(fresh.factorVersions) });
    expect(await computeAnswer(rateLookup, { ...LANE, equipment: "REEFER" }, context(LOADED_AT + DAY))).not.toBe(first);
  });

  test("new figures are answered anew", async () => {
    const { db, data } = await snapshotReferenceData();
    const before = await computeAnswer(rateLookup, LANE, skillContext(data, data.view(LANE.as_of, LOADED_AT + DAY)));
    await importMidwestDiesel(db, "imp_memo_b", 4.9);
    await data.reload();
    const after = await computeAnswer(rateLookup, LANE, skillContext(data, data.view(LANE.as_of, LOADED_AT + 2 * DAY)));
    expect(after).not.toBe(before);
    expect(after.bytes.sha256).not.toBe(before.bytes.sha256);
    expect((after.result.answer as { data_sources: { diesel_source: string } }).data_sources.diesel_source).toContain(
      "2026-09-21",
    );
  });

  test("a view pinned before its newest figures, or a skill that is not replayable, is computed every time", async () => {
    const { data } = await snapshotReferenceData();
    const pinned = () => skillContext(data, data.view(LANE.as_of, LOADED_AT - 1));
    const notReplayable = {
      ...rateLookup,
      replayable: false as const,
      handler: async (input: unknown, context: SkillContext) => rateLookup.handler(input, context),
    };
    const known = skillContext(data, data.view(LANE.as_of, LOADED_AT + DAY));
    // nothing was known yet
    await expect((async () => computeAnswer(rateLookup, LANE, pinned()))()).rejects.toThrow();
    expect(await computeAnswer(notReplayable, LANE, known)).not.toBe(await computeAnswer(notReplayable, LANE, known));
  });
});
