import { andThen, type MaybePromise } from "../../db/maybe-async.ts";
import { compressResponse } from "./compression.ts";
import type { CorsPolicy } from "../pipeline/cors.ts";
import { withCacheValidators } from "./cache.ts";
import { withHeaders } from "./with-headers.ts";

const finished = new WeakSet<Response>();

/**
 * The last step of every response, whichever way it was produced (a route, a refusal before any
 * route ran, the error handler): the request id, CORS, cache validators (or a 304), compression.
 * Running it twice on the same response is a no-op.
 */
export function finishResponse(
  request: Request,
  response: Response,
  requestId: string,
  cors: CorsPolicy,
): MaybePromise<Response> {
  if (finished.has(response)) return response;
  const decorated = withHeaders(response, (headers) => {
    headers.set("X-Request-Id", requestId);
    cors.decorate(request, headers);
  });
  // Synchronous unless a step must read the body (an ETag, compression): no promise per response.
  return andThen(
    andThen(withCacheValidators(request, decorated), (validated) => compressResponse(request, validated)),
    markFinished,
  );
}

function markFinished(response: Response): Response {
  finished.add(response);
  return response;
}

export const isFinished = (response: Response) => finished.has(response);
