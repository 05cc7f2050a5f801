import { Elysia } from "elysia";
import type { Principal } from "../../../access/principal.ts";
import { utcDateOf } from "../../../dates.ts";
import type { PipelineDeps } from "../../../pipeline/run-skill.ts";
import { validateInput } from "../../../pipeline/validate.ts";
import type { AnySkill } from "../../../skills/types.ts";
import { PUBLIC_DOCUMENT_CACHE_CONTROL } from "../../responses/cache.ts";
import { type DocumentSource, openApiDocument } from "./document.ts";

const KEPT_DOCUMENTS_MAX = 8;

/** Who the document's example answers are computed for: no account, every skill. */
const EXAMPLE_CALLER: Principal = {
  accountId: "acct_01JD2ZNZX0A1B2C3D4E5F6G7H8",
  keyId: "key_01JD2ZP0B3E6G8J1L4N7Q9S2U5",
  authObjId: "auth_obj_01JD2ZP1C4F7H9K2M5Q8S0V3XZ",
  tier: "enterprise",
  scopes: null,
};

/**
 * A skill's real answer to the document's example input, from this instance's reference data
 * (nothing is metered or signed). Skills that read the ledger (not replayable) have no answer
 * without an earlier receipt; their example is built from the schema instead.
 */
function answerExample(deps: PipelineDeps & { skills: readonly AnySkill[] }, now: number) {
  return (skill: AnySkill, rawInput: unknown): unknown => {
    if (!skill.replayable || !skill.handler) return undefined;
    try {
      const input = validateInput(skill.input, rawInput, "body");
      const asOf = skill.asOf?.(input) ?? utcDateOf(now);
      const result = skill.handler(input, {
        data: deps.reference.view(asOf, now),
        caller: EXAMPLE_CALLER,
        instance: deps,
      });
      const { answer } = result;
      return {
        ...answer,
        receipt_id: "rcpt_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
        log_index: 41,
        auth_obj_id: EXAMPLE_CALLER.authObjId,
      };
    } catch {
      return undefined;
    }
  };
}

/**
 * GET /openapi.json. Built on first request (the route table is complete by then) and kept per
 * server URL: `--public-url` when set, otherwise the origin the caller used.
 */
export function openApiRoutes(
  deps: PipelineDeps & { skills: readonly AnySkill[] },
  routes: () => DocumentSource["routes"],
  publicUrl?: string,
) {
  const built = new Map<string, string>();
  return new Elysia({ name: "openapi" }).get("/openapi.json", ({ request }) => {
    const serverUrl = publicUrl ?? new URL(request.url).origin;
    let body = built.get(serverUrl);
    if (body === undefined) {
      body = JSON.stringify(
        openApiDocument({
          skills: deps.skills,
          routes: routes(),
          serverUrl,
          answerExample: answerExample(deps, deps.clock.now()),
        }),
      );
      // The Host header is the caller's to choose: keep only a few origins' documents.
      const oldest = built.keys().next();
      if (built.size >= KEPT_DOCUMENTS_MAX && !oldest.done) built.delete(oldest.value);
      built.set(serverUrl, body);
    }
    return new Response(body, {
      headers: { "content-type": "application/json", "cache-control": PUBLIC_DOCUMENT_CACHE_CONTROL },
    });
  });
}
