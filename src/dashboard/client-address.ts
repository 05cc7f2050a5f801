import type { Server } from "bun";
import type { DashboardOptions } from "./deps.ts";

/**
 * The address the sign-in throttle counts against: the socket peer, or, with `--trust-proxy`, the
 * last X-Forwarded-For entry, which is the one our proxy appended (entries to its left came from
 * the client and can be forged).
 */
export function clientAddressOf(server: Server<unknown> | null, request: Request, options: DashboardOptions): string {
  if (options.trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
