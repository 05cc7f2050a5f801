/**
 * The layers, one way down (docs/architecture.md):
 *
 *   composition  src/main.ts, app.ts, runtime.ts, config.ts,  may use everything
 *                src/cli/serve.ts (builds and starts the server)
 *   transports   src/http/, src/dashboard/, src/cli/, views/  may use what is below
 *   work         src/batch/                                   bid sheets priced in the background
 *   pipeline     src/pipeline/, src/access/, src/metering/    gates, metering, validation
 *   skills       src/skills/                                  one folder per skill
 *   data         src/receipts/, src/reference/, src/db/       the ledger, reference data, SQLite
 *   shared       src/errors.ts, src/dates.ts, src/clock.ts, src/ids.ts, src/paths.ts
 *
 * A caller's tier and grant (src/access/tiers.ts, principal.ts) are vocabulary every layer may name.
 * Type-only imports count too.
 */
const COMPOSITION = "^src/((main|app|runtime|config)\\.ts|cli/serve\\.ts)$";
const TRANSPORTS = "^(src/(http|dashboard|cli)/|views/)";
const PIPELINE = "^src/(pipeline|metering)/|^src/access/(?!(tiers|principal)\\.ts$)";
const SKILLS = "^src/skills/";
const WORK = "^src/batch/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles hide which layer depends on which.",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-up-from-transports",
      severity: "error",
      comment: "Transports are composed in src/app.ts; they do not reach for the composition root.",
      from: { path: TRANSPORTS, pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: "not-up-from-work",
      comment: "Bid sheets run through the pipeline below them; transports and the composition root call them.",
      severity: "error",
      from: { path: WORK },
      to: { path: [COMPOSITION, TRANSPORTS] },
    },
    {
      name: "not-up-from-pipeline",
      severity: "error",
      comment: "The pipeline serves every transport and knows none of them.",
      from: { path: PIPELINE },
      to: { path: [COMPOSITION, TRANSPORTS, WORK] },
    },
    {
      name: "not-up-from-skills",
      severity: "error",
      comment:
        "A skill is a pure declaration: the pipeline runs it; it never calls the pipeline, metering or a transport.",
      from: { path: SKILLS },
      to: { path: [COMPOSITION, TRANSPORTS, WORK, PIPELINE] },
    },
    {
      name: "not-up-from-data",
      severity: "error",
      comment: "Receipts, reference data and the database know nothing of skills, gates or transports.",
      from: { path: "^src/(receipts|reference|db)/" },
      to: { path: [COMPOSITION, TRANSPORTS, WORK, PIPELINE, SKILLS] },
    },
    {
      name: "not-up-from-shared",
      severity: "error",
      from: { path: "^src/(errors|dates|clock|ids|paths)\\.ts$" },
      to: { path: [COMPOSITION, TRANSPORTS, WORK, PIPELINE, SKILLS, "^src/(receipts|reference|db)/"] },
    },
    {
      name: "skill-folders-meet-at-index",
      severity: "error",
      comment: "One skill reuses another's model only through that skill's index.ts.",
      from: { path: "^src/skills/([^/]+)/" },
      to: { path: "^src/skills/[^/]+/", pathNot: ["^src/skills/$1/", "^src/skills/[^/]+/index\\.ts$"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js"],
    },
  },
};
