import { Elysia } from "elysia";
import { ApiError, apiErrorOf, errorResponse, errors } from "../../errors.ts";
import type { CorsPolicy } from "./cors.ts";
import { finishResponse, isFinished } from "../responses/finish-response.ts";
import type { Metrics } from "../observability/metrics.ts";
import { bodyCapFor, readCappedBody } from "./body-cap.ts";
import { requestIdFor } from "./request-id.ts";
import { log } from "../../ops/log.ts";
import { logAccess, keyDisplayIdOf, type RequestActor } from "../observability/access-log.ts";
import { CLIENT_GONE_STATUS, isClientGone } from "../../client-gone.ts";

interface RequestState {
  id: string;
  startedAt: number;
  cors: CorsPolicy;
  /** The status the client received, once the response is finished (a compressed body finishes later). */
  sentStatus?: number;
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

interface RequestPipelineOptions {
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

/** A route's own work, given the request and its path parameters; the request pipeline does the rest. */
export type RouteHandler = (request: Request, params: Record<string, string>) => Promise<Response>;

/**
 * The one way every request goes, whatever its route: an X-Request-Id (the caller's, when well
 * formed), OPTIONS, the body size cap, turning errors (unknown route or method, unparseable body, a
 * refusal, a failure) into rows of the error table, finishing every response (CORS, ETag,
 * compression; docs/api.md), then metrics and the access log. Tests call `app.handle`, which runs
 * the same steps a listening server does.
 */
export function requestPipeline({ metrics, cors, allowedMethods, recognise }: RequestPipelineOptions) {
  const sent = (request: Request, response: Response): Response => {
    stateOf(request).sentStatus = response.status;
    return response;
  };
  const finish = async (request: Request, response: Response) =>
    sent(request, await finishResponse(request, response, requestIdOf(request), cors));
  /** The request's state; made here for a request that failed before its first step ran. */
  const stateOf = (request: Request): RequestState => {
    let state = states.get(request);
    if (!state) {
      state = { id: requestIdFor(request), startedAt: performance.now(), cors };
      states.set(request, state);
    }
    return state;
  };
  const refuse = (request: Request, state: RequestState, error: ApiError) => {
    return finish(request, errorResponse(error, state.id, recognise(request)));
  };

  /** OPTIONS on a known path: the CORS preflight when it is one, else 204 with the methods allowed. */
  const preflight = (request: Request): Promise<Response> | undefined => {
    if (request.method !== "OPTIONS") return undefined;
    const allowed = allowedMethods(new URL(request.url).pathname);
    if (allowed.length === 0) return undefined;
    const answer = cors.preflight(request, allowed);
    return finish(request, answer ?? new Response(null, { status: 204, headers: { Allow: allowed.join(", ") } }));
  };

  /** A body declared past the cap is refused before it is read (a body without a length is capped as it is read). */
  const capBody = (request: Request): Promise<Response> | undefined => {
    const declaredLength = Number(request.headers.get("content-length") ?? 0);
    const cap = bodyCapFor(new URL(request.url).pathname);
    if (declaredLength <= cap) return undefined;
    return refuse(request, stateOf(request), errors.payloadTooLarge(cap));
  };

  /** Every response finished (request id, CORS, cache validators, compression); a plain object becomes JSON. */
  const finishStep = (
    request: Request,
    value: unknown,
    set: { status?: unknown; headers: Record<string, unknown> },
  ) => {
    if (value instanceof Response) {
      // The finished response carries the id itself; left in `set`, Elysia would copy the
      // response into a new one around its body stream just to add it again.
      delete set.headers["x-request-id"];
      return isFinished(value) ? sent(request, value) : finish(request, value);
    }
    if (isPlainBody(value)) {
      const status = typeof set.status === "number" ? set.status : 200;
      const response = Response.json(value, { status, headers: set.headers as Record<string, string> });
      delete set.headers["x-request-id"];
      return finish(request, response);
    }
    return undefined;
  };

  /** The error table's answer to whatever a route threw; `code` is Elysia's name for its own errors. */
  const fail = async (request: Request, error: unknown, code?: string | number): Promise<Response> => {
    const state = stateOf(request);
    if (isClientGone(error, request.signal)) {
      state.sentStatus = CLIENT_GONE_STATUS;
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
      apiError = apiErrorOf(error);
      log.failure(apiError.status === 503 ? "database_unreachable" : "unhandled_error", error, {
        request_id: state.id,
      });
    }
    return refuse(request, state, apiError);
  };

  /** Metrics and the access-log line, once the response is sent: with the status the client received. */
  const observe = (context: { request: Request; set: { status?: unknown } }): void => {
    const { request, set } = context;
    const state = states.get(request);
    if (!state) return;
    const response = "responseValue" in context ? context.responseValue : undefined;
    const route = ("route" in context && typeof context.route === "string" && context.route) || "unmatched";
    const answeredStatus = response instanceof Response ? response.status : Number(set.status ?? 200);
    const status = request.signal.aborted ? CLIENT_GONE_STATUS : (state.sentStatus ?? answeredStatus);
    const latencyMs = performance.now() - state.startedAt;
    metrics.observe(request.method, route, status, latencyMs / 1000);
    logAccess({ requestId: state.id, method: request.method, route, status, latencyMs, actor: state.actor });
  };

  /** The request's state and its X-Request-Id, which every response and log line carries. */
  const identify = ({ request, set }: { request: Request; set: { headers: Record<string, string | number> } }) => {
    states.set(request, { id: requestIdFor(request), startedAt: performance.now(), cors });
    set.headers["x-request-id"] = requestIdOf(request);
  };

  /**
   * The steps of every request, in order, for every route the app declares: read this list to know
   * what happens to a request (as Unkey's register.go lists its middlewares). A step that returns a
   * response answers the request there; the route runs after the `onRequest` steps.
   */
  return (
    new Elysia({ name: "request-pipeline" })
      .onRequest(identify) // the request id and the request's state
      .onRequest(({ request }) => preflight(request)) // OPTIONS: a CORS preflight, or 204 with Allow
      .onRequest(({ request }) => capBody(request)) // 413 for a declared body past the cap
      .onError({ as: "global" }, ({ code, error, request }) => fail(request, error, code)) // errors → the error table
      // finishing: the request id, CORS, cache validators, compression
      .mapResponse({ as: "global" }, ({ request, responseValue, set }) => finishStep(request, responseValue, set))
      .onAfterResponse({ as: "global" }, (context) => observe(context))
  ); // metrics and the access-log line
}

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
