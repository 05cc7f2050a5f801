import type { Server } from "bun";
import type { DashboardOptions } from "./deps.ts";

/** The address the sign-in throttle counts against: the socket peer, or the proxy's X-Forwarded-For when trusted. */
export function clientAddressOf(server: Server<unknown> | null, request: Request, options: DashboardOptions): string {
  if (options.trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
