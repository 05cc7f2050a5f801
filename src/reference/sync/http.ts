/** A source's API refused or failed; the message is one line naming the source's own words. */
export class SyncSourceError extends Error {
  override name = "SyncSourceError";
}

export interface HttpOptions {
  fetch: typeof fetch;
  timeoutMs: number;
}

/** The JSON body of one request, or SyncSourceError with the API's own error text when there is one. */
export async function requestJson(url: string, init: RequestInit, http: HttpOptions, describe: (body: unknown) => string | undefined): Promise<unknown> {
  let response: Response;
  try {
    response = await http.fetch(url, { ...init, signal: AbortSignal.timeout(http.timeoutMs) });
  } catch (error) {
    const name = (error as Error).name;
    throw new SyncSourceError(name === "TimeoutError" || name === "AbortError" ? `no answer within ${http.timeoutMs} ms` : `request failed: ${(error as Error).message}`);
  }
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
