import { andThen, type MaybePromise } from "../../db/maybe-async.ts";
import type { AnswerBody } from "../../receipts/answer-bytes.ts";
import { compressedAnswer, compressResponse } from "./compression.ts";
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

/**
 * A JSON answer whose body is in hand and never stored (`no-store`: no cache validators), built
 * finished in one step with the headers finishResponse would give it (request id, CORS, Vary,
 * compression), instead of being built, then read back and changed header by header. For a GET or a
 * POST; anything else goes the general way.
 */
export function finishedJsonAnswer(
  request: Request,
  status: number,
  headers: Readonly<Record<string, string>>,
  answer: AnswerBody,
  cors: CorsPolicy,
): Response {
  const corsHeaders = cors.responseHeaders(request);
  const { body, encoding } = compressedAnswer(request, answer);
  const response = new Response(body as BodyInit, {
    status,
    headers: {
      ...headers,
      "content-type": "application/json",
      ...corsHeaders,
      Vary: corsHeaders.Vary ? `${corsHeaders.Vary}, Accept-Encoding` : "Accept-Encoding",
      ...(encoding && { "Content-Encoding": encoding }),
    },
  });
  return markFinished(response);
}

function markFinished(response: Response): Response {
  finished.add(response);
  return response;
}

export const isFinished = (response: Response) => finished.has(response);
