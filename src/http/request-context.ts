import { Elysia } from "elysia";
import { newId } from "../ids.ts";
import { ApiError, errorResponse, errors } from "../errors.ts";
import type { Metrics } from "./metrics.ts";

export const MAX_BODY_BYTES = 64 * 1024;

interface RequestState {
  id: string;
  startedAt: number;
  errorStatus?: number;
}

const states = new WeakMap<Request, RequestState>();

/** The id every response and log line of this request carries. */
export function requestIdOf(request: Request): string {
  return states.get(request)?.id ?? "req_unknown";
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
      let apiError: ApiError;
      if (error instanceof ApiError) apiError = error;
      else if (code === "NOT_FOUND") apiError = errors.notFound("No such route.");
      else if (code === "PARSE") apiError = errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
      else {
        console.error(`[${requestId}] unhandled error:`, error);
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
      const status = state.errorStatus ?? (response instanceof Response ? response.status : Number(set.status ?? 200));
      const route = ("route" in context && typeof context.route === "string" && context.route) || "unmatched";
      metrics.observe(request.method, route, status, (performance.now() - state.startedAt) / 1000);
    });
}

/**
 * A JSON request body: 415 unless declared as JSON, 413 past the cap (also for bodies sent
 * without a Content-Length), 400 when it does not parse.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) throw errors.unsupportedMediaType();
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_BODY_BYTES) throw errors.payloadTooLarge(MAX_BODY_BYTES);
  if (bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
  }
}
