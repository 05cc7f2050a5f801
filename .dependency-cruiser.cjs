/**
 * The layers, one way down (docs/architecture.md):
 *
 *   composition  src/main.ts, app.ts, runtime.ts, config.ts,  may use everything
 *                src/cli/serve.ts (builds and starts the server)
 *   transports   src/http/, src/dashboard/, src/cli/, views/  may use what is below
 *                (src/http/ by concern: pipeline/, responses/, observability/, routes/)
 *   work         src/batch/                                   bid sheets priced in the background
 *   pipeline     src/pipeline/, src/access/, src/metering/,   gates, metering, validation,
 *                src/webhooks/                                webhook delivery
 *   skills       src/skills/                                  one folder per skill
 *   data         src/receipts/, src/reference/, src/db/,      the ledger, reference data, SQLite,
 *                src/events/, src/ops/                        the event log, operational records
 *   shared       src/errors.ts, dates.ts, clock.ts, ids.ts,   vocabulary with no storage
 *                paths.ts, cursor.ts, client-gone.ts, version.ts,
 *                src/ops/log.ts, src/access/tiers.ts, principal.ts
 *
 * A caller's tier and grant (src/access/tiers.ts, principal.ts) are vocabulary every layer may name.
 * Type-only imports count too.
 */
const COMPOSITION = "^src/((main|app|runtime|config)\\.ts|cli/serve\\.ts)$";
const TRANSPORTS = "^(src/(http|dashboard|cli)/|views/)";
const PIPELINE = "^src/(pipeline|metering|webhooks)/|^src/access/(?!(tiers|principal)\\.ts$)";
const SKILLS = "^src/skills/";
const WORK = "^src/batch/";
const SHARED =
  "^src/((errors|dates|clock|ids|paths|cursor|client-gone|version)\\.ts|ops/log\\.ts|access/(tiers|principal)\\.ts)$";
const DATA = "^src/(receipts|reference|db|events)/|^src/ops/(?!log\\.ts$)";

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
      severity: "error",
      comment: "Bid sheets run through the pipeline below them; transports and the composition root call them.",
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
      comment: "Receipts, reference data, events and the database know nothing of skills, gates or transports.",
      from: { path: DATA },
      to: { path: [COMPOSITION, TRANSPORTS, WORK, PIPELINE, SKILLS] },
    },
    {
      name: "not-up-from-shared",
      severity: "error",
      from: { path: SHARED },
      to: { path: [COMPOSITION, TRANSPORTS, WORK, PIPELINE, SKILLS, DATA] },
    },
    {
      name: "http-steps-know-no-routes",
      severity: "error",
      comment:
        "src/http/ by concern (docs/architecture.md): the request pipeline, responses and observability serve every route and import none.",
      from: { path: "^src/http/(pipeline|responses|observability)/" },
      to: { path: "^src/http/routes/" },
    },
    {
      name: "http-responses-and-observability-below-the-pipeline",
      severity: "error",
      comment: "Finishing a response and counting it know nothing of the pipeline's steps (CORS policy types aside).",
      from: { path: "^src/http/(responses|observability)/" },
      to: { path: "^src/http/pipeline/", pathNot: "^src/http/pipeline/cors\\.ts$" },
    },
    {
      name: "http-observability-alone",
      severity: "error",
      comment: "Metrics and the access log are leaves of src/http/.",
      from: { path: "^src/http/observability/" },
      to: { path: "^src/http/(pipeline|responses|routes)/" },
    },
    {
      name: "skill-folders-meet-at-index",
      severity: "error",
      comment: "One skill reuses another's model only through that skill's index.ts.",
      from: { path: "^src/skills/([^/]+)/" },
      to: { path: "^src/skills/[^/]+/", pathNot: ["^src/skills/$1/", "^src/skills/[^/]+/index\\.ts$"] },
    },
    {
      name: "every-file-in-a-layer",
      severity: "error",
      comment: "A new folder of src/ is placed in a layer here and in docs/architecture.md before it is used.",
      from: {},
      to: { path: "^src/", pathNot: [COMPOSITION, TRANSPORTS, WORK, PIPELINE, SKILLS, DATA, SHARED] },
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
