import type { Store } from "../db/client.ts";
import { readSetting, writeSetting } from "./settings.ts";

/**
 * The origin one-time links (setup, password) point at, as a browser can open it: a wildcard
 * listening address becomes the loopback one, an IPv6 literal gets its brackets.
 */
export function reachableOrigin(host: string, port: number): string {
  const name = host === "0.0.0.0" ? "127.0.0.1" : host === "::" || host === "[::]" ? "[::1]" : host;
  return `http://${name.includes(":") && !name.startsWith("[") ? `[${name}]` : name}:${port}`;
}

/**
 * `serve` records where it can be reached (its --public-url, or the address it really listens on) so
 * that a command run later against the same database (`accounts create`, `accounts set-password`)
 * prints links to the running server rather than to the default port.
 */
export function rememberLinkOrigin(db: Store, origin: string): Promise<void> {
  return writeSetting(db, "link_origin", origin);
}

export function rememberedLinkOrigin(db: Store): Promise<string | undefined> {
  return readSetting(db, "link_origin");
}
