import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "./public-address.ts";

/**
 * Where webhooks may go (docs/alerts-and-webhooks.md, "Delivery safety"). By default only https URLs whose
 * host resolves to public unicast addresses; `--allow-private-webhooks` lets an operator deliver to
 * loopback and private networks (and over plain http) for a receiver on their own machine.
 */
export interface TargetPolicy {
  allowPrivate: boolean;
  /** Every address the host name resolves to (injected so tests can play a changing DNS answer). */
  resolve(hostname: string): Promise<string[]>;
}

export class WebhookTargetError extends Error {}

export const systemResolver = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const MAX_URL_LENGTH = 2000;

/** Check a URL's form when it is saved: scheme, no credentials, a host. Addresses are checked at each delivery. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new WebhookTargetError("is not a URL");
  }
  if (raw.length > MAX_URL_LENGTH) throw new WebhookTargetError(`is longer than ${MAX_URL_LENGTH} characters`);
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol))
    throw new WebhookTargetError(allowPrivate ? "must be an http or https URL" : "must be an https URL");
  if (url.username || url.password) throw new WebhookTargetError("must not carry a user name or password");
  if (!url.hostname) throw new WebhookTargetError("has no host");
  url.hash = "";
  if (!allowPrivate && isIP(bareHost(url)) && !isPublicAddress(bareHost(url))) {
    throw new WebhookTargetError("must point at a public address");
  }
  return url;
}

/** The URL's host without IPv6 brackets. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * Resolve the host once and pick the address to connect to. Every address in the answer must be
 * allowed: the caller connects to the returned address itself, so a DNS answer that changes between
 * this check and the connection cannot redirect the request.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<string> {
  const host = bareHost(url);
  const addresses = isIP(host) ? [host] : await policy.resolve(host).catch(() => []);
  const [first] = addresses;
  if (first === undefined) throw new WebhookTargetError(`could not resolve ${host}`);
  if (!policy.allowPrivate) {
    const refused = addresses.find((address) => !isPublicAddress(address));
    if (refused) throw new WebhookTargetError(`${host} resolves to ${refused}, which is not a public address`);
  }
  return first;
}
