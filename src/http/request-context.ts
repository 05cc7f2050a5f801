import { Elysia } from "elysia";
import { newId } from "../ids.ts";
import { ApiError, errorResponse, errors } from "../errors.ts";
import type { Metrics } from "./metrics.ts";
import { MAX_BODY_BYTES, readCappedBody } from "./body-cap.ts";
import { log } from "../ops/log.ts";
import { logAccess, keyDisplayIdOf, type RequestActor } from "./access-log.ts";
import { CLIENT_GONE_STATUS, isClientGone } from "../client-gone.ts";

export { MAX_BODY_BYTES } from "./body-cap.ts";

interface RequestState {
  id: string;
  startedAt: number;
  errorStatus?: number;
  actor?: RequestActor;
}

const states = new WeakMap<Request, RequestState>();

/** The id every response and log line of this request carries. */
export function requestIdOf(request: Request): string {
  return states.get(request)?.id ?? "req_unknown";
}

/** Name who a request ran as, for its access-log line (a key's display id is read from its header). */
export function attributeRequest(request: Request, accountId: string, viaKey: boolean): void {
  const state = states.get(request);
  if (state) state.actor = { accountId, keyDisplayId: viaKey ? keyDisplayIdOf(request) : undefined };
}

/**
 * Global concerns of every request: an X-Request-Id, the body size cap, metrics, and turning
 * framework errors (unknown route, unparseable body) into rows of the error table.
 */
export function requestContext(metrics: Metrics) {
  return new Elysia({ name: "request-context" })
    .onRequest(({ request, set }) => {
      const state: RequestState = { id: newId("req"), startedAt: performance.now() };
      states.set(request, state);
      set.headers["x-request-id"] = state.id;
      const declaredLength = Number(request.headers.get("content-length") ?? 0);
      if (declaredLength > MAX_BODY_BYTES) {
        state.errorStatus = 413;
        return errorResponse(errors.payloadTooLarge(MAX_BODY_BYTES), state.id);
      }
    })
    .onError({ as: "global" }, ({ code, error, request }) => {
      const state = states.get(request);
      const requestId = state?.id ?? "req_unknown";
      if (isClientGone(error, request.signal)) {
        if (state) state.errorStatus = CLIENT_GONE_STATUS;
        return new Response(null, { status: CLIENT_GONE_STATUS }); // nobody is left to read it
      }
      let apiError: ApiError;
      if (error instanceof ApiError) apiError = error;
      else if (code === "PARSE" && (error as Error).cause instanceof ApiError) apiError = (error as Error).cause as ApiError; // a refusal from a parse hook (the body cap)
      else if (code === "NOT_FOUND") apiError = errors.notFound("No such route.");
      else if (code === "PARSE") apiError = errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
      else {
        log.failure("unhandled_error", error, { request_id: requestId });
        apiError = errors.internal();
      }
      if (state) state.errorStatus = apiError.status;
      return errorResponse(apiError, requestId);
    })
    .onAfterResponse({ as: "global" }, (context) => {
      const { request, set } = context;
      const state = states.get(request);
      if (!state) return;
      const response = "responseValue" in context ? context.responseValue : undefined;
      const answered = state.errorStatus ?? (response instanceof Response ? response.status : Number(set.status ?? 200));
      const status = request.signal.aborted ? CLIENT_GONE_STATUS : answered;
      const route = ("route" in context && typeof context.route === "string" && context.route) || "unmatched";
      const latencyMs = performance.now() - state.startedAt;
      metrics.observe(request.method, route, status, latencyMs / 1000);
      logAccess({ requestId: state.id, method: request.method, route, status, latencyMs, actor: state.actor });
    });
}

/**
 * A JSON request body: 415 unless declared as JSON, 413 past the cap (also for bodies sent
 * without a Content-Length), 400 when it does not parse.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) throw errors.unsupportedMediaType();
  const bytes = await readCappedBody(request);
  if (bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
  }
}
