import { Elysia } from "elysia";
import { ApiError, errorResponse, errors } from "../errors.ts";
import type { CorsPolicy } from "./cors.ts";
import { finishedJsonAnswer, finishResponse, isFinished } from "./finish-response.ts";
import type { Metrics } from "./metrics.ts";
import { bodyCapFor, MAX_BODY_BYTES, readCappedBody } from "./body-cap.ts";
import { requestIdFor } from "./request-id.ts";
import { log } from "../ops/log.ts";
import { logAccess, keyDisplayIdOf, type RequestActor } from "./access-log.ts";
import { CLIENT_GONE_STATUS, isClientGone } from "../client-gone.ts";
import { answerBodyText, type AnswerBody } from "../receipts/answer-bytes.ts";
import type { MaybePromise } from "../db/maybe-async.ts";

interface RequestState {
  id: string;
  startedAt: number;
  cors: CorsPolicy;
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
 * A skill's answer, its body in hand: finished at once when the request came through the request
 * context (a GET or POST), else built plain and finished by the context's response hook as usual.
 */
export function answerResponse(
  request: Request,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: AnswerBody,
): Response {
  const state = states.get(request);
  if (state && (request.method === "POST" || request.method === "GET"))
    return finishedJsonAnswer(request, status, headers, body, state.cors);
  return new Response(answerBodyText(body), { status, headers: { ...headers, "content-type": "application/json" } });
}

interface RequestContextOptions {
  metrics: Metrics;
  cors: CorsPolicy;
  /** Methods the path is served under (empty: no such path), from the app's route table. */
  allowedMethods(pathname: string): string[];
  /** The auth_obj_id of a valid key on the request, without refusing: for answers given before any route ran. */
  recognise(request: Request): string | undefined;
}

/** A JSON body Elysia would serialize itself: a plain object or an array (not a Response, stream, file or promise). */
const isPlainBody = (value: unknown): value is Record<string, unknown> =>
  Array.isArray(value) ||
  (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype);

/** A route's own work, given the request and its path parameters; the request context does the rest. */
export type RouteHandler = (request: Request, params: Record<string, string>) => Promise<Response>;

/**
 * Global concerns of every request: an X-Request-Id (the caller's, when well formed), the body
 * size cap, OPTIONS and 405, metrics and the access log, turning errors (unknown route,
 * unparseable body, a refusal, a failure) into rows of the error table, and finishing every
 * response (CORS, ETag, compression; docs/api.md). The same steps serve two ways in:
 * - `plugin`, Elysia's global hooks around every route the app declares;
 * - `direct`, one function around a route served by Bun's own router, without Elysia's hooks and
 *   context on the hot path (docs/performance.md, "Skill routes on Bun's router").
 */
export function requestContext({ metrics, cors, allowedMethods, recognise }: RequestContextOptions) {
  const finish = (request: Request, response: Response) =>
    finishResponse(request, response, requestIdOf(request), cors);
  const refuse = (request: Request, state: RequestState, error: ApiError) => {
    state.errorStatus = error.status;
    return finish(request, errorResponse(error, state.id, recognise(request)));
  };

  /** The request's state; a response when it is answered before any route runs (a preflight, a body past the cap). */
  const begin = (request: Request): MaybePromise<Response> | undefined => {
    const state: RequestState = { id: requestIdFor(request), startedAt: performance.now(), cors };
    states.set(request, state);
    if (request.method === "OPTIONS") {
      const allowed = allowedMethods(new URL(request.url).pathname);
      if (allowed.length > 0) {
        const preflight = cors.preflight(request, allowed);
        return finish(
          request,
          preflight ?? new Response(null, { status: 204, headers: { Allow: allowed.join(", ") } }),
        );
      }
    }
    const declaredLength = Number(request.headers.get("content-length") ?? 0);
    if (declaredLength > MAX_BODY_BYTES) {
      const cap = bodyCapFor(new URL(request.url).pathname);
      if (declaredLength > cap) return refuse(request, state, errors.payloadTooLarge(cap));
    }
    return undefined;
  };

  /** The error table's answer to whatever a route threw; `code` is Elysia's name for its own errors. */
  const fail = (request: Request, error: unknown, code?: string | number): MaybePromise<Response> => {
    const state = states.get(request) ?? { id: requestIdFor(request), startedAt: performance.now(), cors };
    if (isClientGone(error, request.signal)) {
      state.errorStatus = CLIENT_GONE_STATUS;
      return new Response(null, { status: CLIENT_GONE_STATUS }); // nobody is left to read it
    }
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (code === "PARSE" && (error as Error).cause instanceof ApiError)
      apiError = (error as Error).cause as ApiError; // a refusal from a parse hook (the body cap)
    else if (code === "NOT_FOUND") {
      const allowed = allowedMethods(new URL(request.url).pathname);
      apiError =
        allowed.length > 0 ? errors.methodNotAllowed(request.method, allowed) : errors.notFound("No such route.");
    } else if (code === "PARSE") apiError = errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
    else {
      log.failure("unhandled_error", error, { request_id: state.id });
      apiError = errors.internal();
    }
    return refuse(request, state, apiError);
  };

  /** Metrics and the access-log line, once the status is known. */
  const end = (request: Request, route: string, answeredStatus: number): void => {
    const state = states.get(request);
    if (!state) return;
    const status = request.signal.aborted ? CLIENT_GONE_STATUS : (state.errorStatus ?? answeredStatus);
    const latencyMs = performance.now() - state.startedAt;
    metrics.observe(request.method, route, status, latencyMs / 1000);
    logAccess({ requestId: state.id, method: request.method, route, status, latencyMs, actor: state.actor });
  };

  const plugin = new Elysia({ name: "request-context" })
    .onRequest(({ request, set }) => {
      const early = begin(request);
      set.headers["x-request-id"] = requestIdOf(request);
      return early;
    })
    .onError({ as: "global" }, ({ code, error, request }) => fail(request, error, code))
    .mapResponse({ as: "global" }, ({ request, responseValue, set }) => {
      if (responseValue instanceof Response) {
        // The finished response carries the id itself; left in `set`, Elysia would copy the
        // response into a new one around its body stream just to add it again.
        delete set.headers["x-request-id"];
        return isFinished(responseValue) ? responseValue : finish(request, responseValue);
      }
      if (isPlainBody(responseValue)) {
        const status = typeof set.status === "number" ? set.status : 200;
        const response = Response.json(responseValue, { status, headers: set.headers as Record<string, string> });
        delete set.headers["x-request-id"];
        return finish(request, response);
      }
    })
    .onAfterResponse({ as: "global" }, (context) => {
      const { request, set } = context;
      const response = "responseValue" in context ? context.responseValue : undefined;
      const route = ("route" in context && typeof context.route === "string" && context.route) || "unmatched";
      end(request, route, response instanceof Response ? response.status : Number(set.status ?? 200));
    });

  /**
   * A route served by Bun's router (`route` is its pattern, for metrics and the log): the same
   * steps as the plugin's hooks, in the same order. The access-log line is written as the response
   * is handed to Bun rather than after it is sent.
   */
  const direct =
    (route: string, handler: RouteHandler) =>
    async (request: Request & { params?: Record<string, string> }): Promise<Response> => {
      let response: Response;
      try {
        const early = begin(request);
        const answered = early !== undefined ? await early : await handler(request, request.params ?? {});
        response = await (isFinished(answered) ? answered : finish(request, answered));
      } catch (error) {
        response = await fail(request, error);
      }
      end(request, route, response.status);
      return response;
    };

  return { plugin, direct };
}

export type RequestContext = ReturnType<typeof requestContext>;

/** One decoder for every body (it keeps no state between non-streaming calls). */
const UTF8 = new TextDecoder();

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
    return JSON.parse(UTF8.decode(bytes));
  } catch {
    throw errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
  }
}
