import type { DocumentDecoration } from "elysia";

type SchemaObject = Record<string, unknown>;
import { PRICED_COLUMNS } from "../../../batch/priced-sheet.ts";
import { rateLookupInput } from "../../../skills/rate-lookup/schema.ts";
import { MAX_SHEET_LANES, XLSX_MEDIA_TYPE } from "../../../batch/sheet.ts";

/** The OpenAPI words of the bid-sheet routes, carried as Elysia's `detail` (src/http/openapi/document.ts). */

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const requestId = { $ref: "#/components/parameters/RequestId" };
const jobIdParameter = {
  name: "job_id",
  in: "path" as const,
  required: true,
  description: "The job id answered by POST /v1/rates/batch.",
  schema: { type: "string" as const, description: "job_<ulid>" },
  example: "job_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
};
const rateLimitHeaders = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/XRateLimitLimit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/XRateLimitRemaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/XRateLimitReset" },
};

const laneExample = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
const CSV_EXAMPLE = 'ref,origin,destination,equipment\nA-1,"Chicago, IL","Dallas, TX",DRY_VAN\n';

const statusSchema: SchemaObject = {
  type: "object",
  description: "Where a bid sheet stands.",
  properties: {
    job_id: { type: "string", description: "The job." },
    status: { type: "string", enum: ["queued", "running", "done", "failed"], description: "The job's state." },
    done: { type: "integer", description: "Rows settled so far (priced or refused)." },
    total: { type: "integer", description: "Rows in the sheet." },
    format: { type: "string", enum: ["json", "csv", "xlsx"], description: "How the sheet arrived." },
    file_name: { type: ["string", "null"], description: "The uploaded file's name (dashboard uploads)." },
    created_at: { type: "string", description: "ISO 8601 submission time." },
    finished_at: { type: ["string", "null"], description: "ISO 8601 time the job finished, or null." },
    failure: { type: "string", description: "Why a failed job stopped (its key was revoked)." },
    status_url: { type: "string", description: "This resource." },
    results_url: { type: "string", description: "The priced rows." },
    receipt_id: { type: "string", description: "The submission's receipt." },
    auth_obj_id: { type: "string", description: "The key grant that made the call." },
  },
  required: ["job_id", "status", "done", "total", "receipt_id", "auth_obj_id"],
};

export const SUBMIT_DOC: DocumentDecoration = {
  summary: "Price a bid sheet",
  description:
    `Up to ${MAX_SHEET_LANES.toLocaleString("en-US")} lanes as JSON \`{"lanes": [...]}\` (each a rate-lookup input), as CSV or as an XLSX workbook ` +
    "(a header row naming origin, destination, equipment and any optional rate-lookup field; other columns are kept as they are). " +
    "Part of rate-lookup: the same scope and tier. The submission counts once toward the minute; each priced lane is one answered call " +
    "toward the month, with its own receipt. A sheet larger than what is left of the month is refused before anything is priced " +
    "(429, `window: month`, with `lanes_needed` and `lanes_left`). The body may be up to 4 MiB.",
  tags: ["skills"],
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object",
          // Inline like every skill input (openapi/document.ts), so generated clients keep defaulted fields optional.
          properties: { lanes: { type: "array", items: JSON.parse(JSON.stringify(rateLookupInput)) } },
          required: ["lanes"],
        },
        example: { lanes: [laneExample] },
      },
      "text/csv": { schema: { type: "string" }, example: CSV_EXAMPLE },
      [XLSX_MEDIA_TYPE]: { schema: { type: "string", format: "binary" } },
    },
  },
  responses: {
    "202": {
      description: "The sheet is stored and queued; poll status_url.",
      headers: { ...rateLimitHeaders, Location: { description: "status_url.", schema: { type: "string" } } },
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              job_id: { type: "string", description: "The job." },
              status: { type: "string", enum: ["queued"], description: "Always queued." },
              total: { type: "integer", description: "Rows in the sheet." },
              status_url: { type: "string", description: "GET it for the job's progress." },
              receipt_id: {
                type: "string",
                description: "The submission's receipt; status and result reads carry it.",
              },
              auth_obj_id: { type: "string", description: "The key grant that made the call." },
            },
            required: ["job_id", "status", "total", "status_url", "receipt_id", "auth_obj_id"],
          },
          example: {
            job_id: jobIdParameter.example,
            status: "queued",
            total: 1,
            status_url: `/v1/rates/batch/${jobIdParameter.example}`,
            receipt_id: "rcpt_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
            auth_obj_id: "auth_obj_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
          },
        },
      },
    },
    "400": responseRef("BadRequest"),
    "403": responseRef("Forbidden"),
    "413": responseRef("PayloadTooLarge"),
    "415": responseRef("UnsupportedMediaType"),
    "429": responseRef("TooManyRequests"),
  },
  parameters: [requestId],
};

export const STATUS_DOC: DocumentDecoration = {
  summary: "Bid sheet status",
  description:
    "`queued`, `running`, `done` or `failed`, with rows settled and in all. Counts once toward the minute only.",
  tags: ["skills"],
  parameters: [jobIdParameter, requestId],
  responses: {
    "200": {
      description: "The job's progress.",
      headers: rateLimitHeaders,
      content: {
        "application/json": {
          schema: statusSchema,
          example: {
            job_id: jobIdParameter.example,
            status: "running",
            done: 4200,
            total: 10000,
            receipt_id: "rcpt_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
            auth_obj_id: "auth_obj_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
          },
        },
      },
    },
    "403": responseRef("Forbidden"),
    "404": responseRef("NotFound"),
    "429": responseRef("TooManyRequests"),
  },
};

export const RESULTS_DOC: DocumentDecoration = {
  summary: "Bid sheet results",
  description:
    "A row per input row, in the sheet's order. `Accept: text/csv` (or the XLSX media type) gives the sheet with every input column kept and " +
    `${PRICED_COLUMNS.join(", ")} added; otherwise JSON lines: \`{row, input, …}\` with rate_per_mile, total_cost, miles, confidence, ` +
    "market (where one exists) and receipt_id for a priced row, error and message (and suggestions) for a refused one. " +
    "The X-Receipt-Id header carries the submission's receipt. Counts once toward the minute only.",
  tags: ["skills"],
  parameters: [jobIdParameter, requestId],
  responses: {
    "200": {
      description: "The rows.",
      headers: rateLimitHeaders,
      content: {
        "application/x-ndjson": {
          schema: { type: "string" },
          example: '{"row":1,"input":{"origin":"Chicago, IL"},"rate_per_mile":2.41,"receipt_id":"rcpt_…"}\n',
        },
        "text/csv": { schema: { type: "string" }, example: `${CSV_EXAMPLE.trimEnd()},${PRICED_COLUMNS.join(",")}\n` },
        [XLSX_MEDIA_TYPE]: { schema: { type: "string", format: "binary" } },
      },
    },
    "403": responseRef("Forbidden"),
    "404": responseRef("NotFound"),
    "429": responseRef("TooManyRequests"),
  },
};
