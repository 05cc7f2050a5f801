import { Elysia } from "elysia";
import { authenticateCaller, recogniseCaller } from "../../../access/authenticate.ts";
import { decide } from "../../../access/authorize.ts";
import { runSkill, type PipelineDeps, type SkillCall, type SkillReply } from "../../../pipeline/run-skill.ts";
import { callResolver } from "../../../skills/call-names.ts";
import { callName, type AnySkill } from "../../../skills/types.ts";
import { answerBodyText } from "../../../receipts/answer-bytes.ts";
import { BATCH_PATH } from "../../../batch/job-view.ts";
import { errorResponse, errors } from "../../../errors.ts";
import { NEVER_STORE } from "../../responses/cache.ts";
import { createIdempotencyStore } from "./idempotency.ts";
import { attributeRequest, readJsonBody, requestIdOf, type RouteHandler } from "../../pipeline/request-pipeline.ts";

/** Every skill reply is one metered event with its own receipt: never to be reused from a cache. */
function toResponse(reply: SkillReply, requestId: string, request: Request): Response {
  if (reply.principal) attributeRequest(request, reply.principal.accountId, true);
  const headers = { ...reply.headers, "Cache-Control": NEVER_STORE, "X-Request-Id": requestId };
  // An answer goes out as the exact bytes its receipt hashed (plus its envelope), serialized once.
  if (reply.answerBody !== undefined)
    return new Response(answerBodyText(reply.answerBody), {
      status: reply.status,
      headers: { ...headers, "content-type": "application/json" },
    });
  return Response.json(reply.body, { status: reply.status, headers });
}

function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/** GET and DELETE carry their input in the query string; path parameters (`:id`) are input fields either way. */
const readsQuery = (skill: AnySkill) => skill.rest.method === "GET" || skill.rest.method === "DELETE";

async function restInput(skill: AnySkill, request: Request, params: Record<string, string>): Promise<unknown> {
  const base = readsQuery(skill) ? queryOf(request) : await readJsonBody(request);
  return typeof base === "object" && base !== null && !Array.isArray(base) ? { ...base, ...params } : base;
}

/** One HTTP way into the skills: a method, a path pattern and what answers it. */
interface SkillEndpoint {
  method: AnySkill["rest"]["method"];
  path: string;
  handle: RouteHandler;
}

/**
 * The HTTP transports generated from the skill declarations: each skill's own REST route and
 * POST /v1/agent/invoke/:skill (the body is the skill's input, whatever its REST method). All of
 * them go through runSkill, so the rules cannot differ between them.
 */
function skillEndpoints(deps: PipelineDeps, skills: readonly AnySkill[]): SkillEndpoint[] {
  const resolve = callResolver(skills);
  const idempotency = createIdempotencyStore(deps);
  /** POST calls may carry an Idempotency-Key; GET calls are safe to retry as they are. */
  const run = (skill: AnySkill, request: Request, call: SkillCall) => {
    const key = request.method === "POST" ? request.headers.get("idempotency-key") : null;
    return key === null
      ? runSkill(deps, skill, call)
      : idempotency.run(skill, key, call, (keyed) => runSkill(deps, skill, keyed));
  };

  const restEndpoints = skills.map(
    (skill): SkillEndpoint => ({
      method: skill.rest.method,
      path: skill.rest.path,
      async handle(request, params) {
        const requestId = requestIdOf(request);
        const reply = await run(skill, request, {
          requestId,
          authorization: request.headers.get("authorization"),
          readInput: () => restInput(skill, request, params),
          inputSource: readsQuery(skill) ? "query" : "body",
          signal: request.signal,
        });
        return toResponse(reply, requestId, request);
      },
    }),
  );

  const invoke: SkillEndpoint = {
    method: "POST",
    path: "/v1/agent/invoke/:skill",
    async handle(request, params) {
      const requestId = requestIdOf(request);
      const resolved = resolve(params.skill ?? "");
      if (!resolved) {
        const caller = recogniseCaller(deps, request.headers.get("authorization"));
        return errorResponse(errors.notFound(`No skill named '${params.skill}'.`), requestId, caller?.authObjId);
      }
      const reply = await run(resolved.skill, request, {
        requestId,
        authorization: request.headers.get("authorization"),
        // A skill with several operations called without one: gated, then told which to call; its body is not read.
        readInput: resolved.chooser ? async () => ({}) : () => readJsonBody(request),
        inputSource: "body",
        signal: request.signal,
      });
      return toResponse(reply, requestId, request);
    },
  };

  return [...restEndpoints, invoke];
}

/** The skill endpoints as Elysia routes, plus GET /v1/skills (what this key may call). */
export function skillRoutes(deps: PipelineDeps, skills: readonly AnySkill[]) {
  const app = new Elysia({ name: "skills" });
  for (const endpoint of skillEndpoints(deps, skills)) {
    app.route(
      endpoint.method,
      endpoint.path,
      ({ request, params }) => endpoint.handle(request, params as Record<string, string>),
      { parse: "none" },
    );
  }

  app.get("/v1/skills", async ({ request }) => {
    const requestId = requestIdOf(request);
    try {
      const principal = await authenticateCaller(deps, request.headers.get("authorization"));
      await deps.confirmKeyLive(principal); // nothing else here reads the database (docs/postgresql.md)
      attributeRequest(request, principal.accountId, true);
      return Response.json({
        skills: skills.map((skill) => ({
          name: skill.name,
          ...(skill.operation && { operation: skill.operation }),
          scope: skill.name,
          minimum_tier: skill.minimumTier,
          description: skill.description,
          method: skill.rest.method,
          path: skill.rest.path,
          invoke_path: `/v1/agent/invoke/${callName(skill)}`,
          // Bid sheets are part of rate-lookup: the same scope and tier (docs/batch.md).
          ...(callName(skill) === "rate-lookup" && { batch_path: BATCH_PATH }),
          available_to_this_key: decide(principal.tier, principal.scopes, skill).allowed,
          input_schema: skill.input,
        })),
        auth_obj_id: principal.authObjId,
      });
    } catch (error) {
      return errorResponse(error, requestId);
    }
  });

  return app;
}
