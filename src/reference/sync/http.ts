/** A source's API refused or failed; the message is one line naming the source's own words. */
export class SyncSourceError extends Error {
  override name = "SyncSourceError";
}

export interface HttpOptions {
  fetch: typeof fetch;
  timeoutMs: number;
}

/** A failed fetch (or a body cut off while it streamed) as one line: a timeout, or the network's error. */
export function requestFailure(error: unknown, timeoutMs: number): SyncSourceError {
  const name = (error as Error).name;
  return new SyncSourceError(
    name === "TimeoutError" || name === "AbortError"
      ? `no answer within ${timeoutMs} ms`
      : `request failed: ${(error as Error).message}`,
  );
}

/** The response to one request within the timeout (which also covers reading its body). */
async function send(url: string, init: RequestInit, http: HttpOptions): Promise<Response> {
  try {
    return await http.fetch(url, { ...init, signal: AbortSignal.timeout(http.timeoutMs) });
  } catch (error) {
    throw requestFailure(error, http.timeoutMs);
  }
}

/**
 * A successful answer's response, its body still unread (a CSV page to stream); otherwise
 * SyncSourceError with the API's own error text, read from its JSON error body when it has one.
 * The timeout covers reading the body too.
 */
export async function requestStream(
  url: string,
  init: RequestInit,
  http: HttpOptions,
  describe: (body: unknown) => string | undefined,
): Promise<Response> {
  const response = await send(url, init, http);
  if (response.ok && response.body) return response;
  const text = await response.text().catch(() => "");
  let problem: string | undefined;
  try {
    problem = describe(JSON.parse(text));
  } catch {
    problem = undefined;
  }
  throw new SyncSourceError(`HTTP ${response.status}${problem ? `: ${problem}` : ""}`);
}

/** The JSON body of one request, or SyncSourceError with the API's own error text when there is one. */
export async function requestJson(
  url: string,
  init: RequestInit,
  http: HttpOptions,
  describe: (body: unknown) => string | undefined,
): Promise<unknown> {
  const response = await send(url, init, http);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SyncSourceError(`HTTP ${response.status}: the answer is not JSON`);
  }
  const problem = describe(body);
  if (!response.ok || problem) throw new SyncSourceError(`HTTP ${response.status}${problem ? `: ${problem}` : ""}`);
  return body;
}

/** The key part of a URL removed, for messages and file names. */
export const redact = (url: string): string => url.replace(/((?:api_key|registrationkey)=)[^&]+/gi, "$1…");
