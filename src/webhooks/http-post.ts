import { isIP } from "node:net";
import { bareHost, resolveTarget, type TargetPolicy, WebhookTargetError } from "./target-policy.ts";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Only the start of a receiver's answer is kept, for the delivery log. */
export const MAX_RESPONSE_BYTES = 4096;

export type PostOutcome =
  | { ok: true; statusCode: number; responseExcerpt: string }
  | { ok: false; statusCode: number | null; error: string };

async function readBounded(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}

/**
 * POST one webhook body. The host is resolved once and the connection goes to that checked address
 * (the Host header and TLS server name stay the URL's host), redirects are not followed, the whole
 * exchange has a deadline and only the first few KiB of the answer are read. Any 2xx is success.
 */
export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  policy: TargetPolicy,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<PostOutcome> {
  let address: string;
  try {
    address = await resolveTarget(url, policy);
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      error: error instanceof WebhookTargetError ? error.message : "could not resolve the host",
    };
  }
  const pinned = new URL(url);
  pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(pinned, {
      method: "POST",
      headers: { ...headers, host: url.host, "content-type": "application/json", "user-agent": "waybill-webhooks/1" },
      body,
      redirect: "manual",
      signal,
      // The certificate must match the URL's host name, not the address we connect to.
      tls: { serverName: bareHost(url) },
      proxy: undefined,
    } as RequestInit);
    const excerpt = await readBounded(response, MAX_RESPONSE_BYTES);
    if (response.status >= 200 && response.status < 300)
      return { ok: true, statusCode: response.status, responseExcerpt: excerpt };
    const why =
      response.status >= 300 && response.status < 400 ? "redirects are not followed" : `answered ${response.status}`;
    return { ok: false, statusCode: response.status, error: why };
  } catch (error) {
    if (signal.aborted) return { ok: false, statusCode: null, error: `no answer within ${timeoutMs / 1000} s` };
    return { ok: false, statusCode: null, error: `could not connect: ${(error as Error).message.split("\n")[0]}` };
  }
}
