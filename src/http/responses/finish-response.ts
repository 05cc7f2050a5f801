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
export async function finishResponse(
  request: Request,
  response: Response,
  requestId: string,
  cors: CorsPolicy,
): Promise<Response> {
  if (finished.has(response)) return response;
  const decorated = withHeaders(response, (headers) => {
    headers.set("X-Request-Id", requestId);
    cors.decorate(request, headers);
  });
  const done = await compressResponse(request, await withCacheValidators(request, decorated));
  finished.add(done);
  return done;
}

export const isFinished = (response: Response) => finished.has(response);
