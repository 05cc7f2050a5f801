import { ERROR_STATUS, type ErrorCode } from "../../../errors.ts";

/** What each code means and what the caller does about it: the page every error's `doc_url` points into. */
const GUIDE: Record<ErrorCode, { means: string; fix: string }> = {
  INVALID_REQUEST: {
    means:
      "The input does not match the skill's schema: malformed JSON, a wrong type, an unknown field, a value outside an enumeration, or a date that is not real or lies in the future.",
    fix: "Read `details`: one entry per problem, naming the `field` and the `problem`, with `allowed` for enumerations. The input schemas are in /openapi.json and GET /v1/skills.",
  },
  MISSING_API_KEY: {
    means: "No API key was sent.",
    fix: "Send `Authorization: Bearer wbk_…` with a key created in the dashboard.",
  },
  MALFORMED_API_KEY: {
    means:
      "The Authorization header is not `Bearer` followed by a well-formed key. A key is `wbk_`, 56 lowercase hex characters and an 8-hex checksum of them, so a mistyped key is caught without a lookup. The message says which part is wrong: the `Bearer` prefix, the `wbk_` prefix, the length, a character that is not lowercase hex, or the checksum.",
    fix: "Copy the key again, whole, and send it as `Authorization: Bearer <key>`.",
  },
  INVALID_API_KEY: {
    means: "The key is well formed but this server does not know it.",
    fix: "Check that the key belongs to this instance; create a new one in the dashboard if it was lost.",
  },
  REVOKED_API_KEY: {
    means: "The key was revoked.",
    fix: "Create a new key in the dashboard.",
  },
  TIER_REQUIRED: {
    means: "The skill needs a higher tier than the account has (`required_tier`, `current_tier`).",
    fix: "Compare tiers at `upgrade_url` (/pricing) and ask the operator to upgrade the account.",
  },
  SCOPE_REQUIRED: {
    means: "The key was created for other skills (`key_scopes`); this one needs `required_scope`.",
    fix: "Create a key with that scope (or without scopes) in the dashboard.",
  },
  NOT_FOUND: {
    means:
      "No such route, skill, operation or record for this account (another account's record looks the same as a missing one). For a skill with several operations, `operations` lists the names to call.",
    fix: "Check the path against /openapi.json or GET /v1/skills.",
  },
  METHOD_NOT_ALLOWED: {
    means: "The path exists, but not under this method.",
    fix: "Use one of `allowed` (also in the Allow header).",
  },
  PAYLOAD_TOO_LARGE: {
    means: "The request body is over 64 KiB.",
    fix: "Send a smaller body.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    means: "The body is not JSON.",
    fix: "Send JSON with `Content-Type: application/json`.",
  },
  UNRESOLVED_LOCATION: {
    means: "A place could not be found among US places and ZIP codes.",
    fix: "Write it as `City, ST` or a 5-digit ZIP; `suggestions` lists close known places when there are any.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    means: "This Idempotency-Key was used in the last 24 hours with a different request.",
    fix: "Use a new key (a fresh UUID) for every new request; reuse a key only to retry the same request.",
  },
  AMBIGUOUS_LOCATION: {
    means: "The place fits several US places of comparable size (`candidates`).",
    fix: "Add the state: `City, ST`.",
  },
  NOT_ROAD_CONNECTED: {
    means: "No truck can drive to the place (an island without a road link, for example).",
    fix: "Price the lane to the port or terminal on the road network instead.",
  },
  RATE_LIMITED: {
    means: "The key's calls this minute or the account's answered calls this month are used up (`window`).",
    fix: "Wait `retry_after` seconds (the Retry-After header) for the minute window; the month resets on the 1st (UTC).",
  },
  ALERT_LIMIT_REACHED: {
    means: "The account keeps as many alerts as its tier allows (`limit`).",
    fix: "Delete an alert, or compare tiers at `upgrade_url`.",
  },
  INTERNAL_ERROR: {
    means: "The server failed to answer; nothing was counted or recorded.",
    fix: "Retry later; quote `request_id` to the operator if it persists.",
  },
  SERVICE_UNAVAILABLE: {
    means: "The server cannot reach its database right now (a restart or failover); nothing was counted or recorded.",
    fix: "Retry after the `Retry-After` seconds; `/readyz` says what the server is waiting for.",
  },
};

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** `code` spans for backticked words; everything else escaped. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

/** /docs/errors: one section per code, each with the anchor its `doc_url` names. */
export function errorGuidePage(): string {
  const sections = (Object.keys(GUIDE) as ErrorCode[]).map(
    (code) => `<section id="${code}">
<h2><a href="#${code}">${ERROR_STATUS[code]} ${code}</a></h2>
<p>${inline(GUIDE[code].means)}</p>
<p><strong>What to do:</strong> ${inline(GUIDE[code].fix)}</p>
</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Waybill errors</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
section:target{background:#fff8d6}code{background:#f2f2f2;padding:0 .2em}h2 a{color:inherit}</style>
</head>
<body>
<h1>Waybill errors</h1>
<p>Every error body is JSON with <code>error</code> (the code), <code>message</code>, <code>request_id</code>,
<code>doc_url</code> (a link to its section here) and, once a key was recognised, <code>auth_obj_id</code>.
The full contract is <a href="/openapi.json">/openapi.json</a>; the reference is <a href="/docs">/docs</a>.</p>
${sections.join("\n")}
</body>
</html>
`;
}
