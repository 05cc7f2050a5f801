/**
 * CORS for browser callers of the API, from an operator-set allow-list (`--cors-origins`; empty by
 * default, so no cross-origin browser may read a response). Only listed origins get
 * `Access-Control-Allow-Origin`, echoed exactly; credentials are never allowed, because the API
 * authenticates with a bearer key, not with cookies. The dashboard is never cross-origin.
 */
export interface CorsPolicy {
  /** The answer to a CORS preflight from an allowed origin, or undefined when it is not one. */
  preflight(request: Request, allowedMethods: readonly string[]): Response | undefined;
  /** Adds the CORS response headers when the request came from an allowed origin. */
  decorate(request: Request, headers: Headers): void;
  /** The same headers as a plain object (`Vary` to be appended to any the response has), for a response not built yet. */
  responseHeaders(request: Request): Readonly<Record<string, string>>;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

const REQUEST_HEADERS = [
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "If-None-Match",
  "X-Request-Id",
  "Accept",
  "Mcp-Protocol-Version",
];
const EXPOSED_HEADERS = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "ETag",
  "Idempotency-Replayed",
  "WWW-Authenticate",
];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** `--cors-origins` / WAYBILL_CORS_ORIGINS: comma-separated origins such as `https://app.example.com`. */
export function parseCorsOrigins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((origin) => origin.trim())
    .filter((origin) => origin !== "")
    .map((origin) => {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new Error(`'${origin}' is not an origin like https://app.example.com`);
      }
      if (!/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, "")) {
        throw new Error(`'${origin}' is not an origin like https://app.example.com (scheme, host and port only)`);
      }
      return url.origin;
    });
}

const appliesTo = (request: Request) => {
  const path = new URL(request.url).pathname;
  return !(path === "/dashboard" || path.startsWith("/dashboard/") || path.startsWith("/public/"));
};

export function corsPolicy(allowedOrigins: readonly string[]): CorsPolicy {
  const allowed = new Set(allowedOrigins);
  const allowedOrigin = (request: Request) => {
    const origin = request.headers.get("origin");
    return origin !== null && allowed.has(origin) && appliesTo(request) ? origin : undefined;
  };
  return {
    preflight(request, allowedMethods) {
      const origin = allowedOrigin(request);
      if (!origin || !request.headers.get("access-control-request-method")) return undefined;
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": allowedMethods.join(", "),
          "Access-Control-Allow-Headers": REQUEST_HEADERS.join(", "),
          "Access-Control-Max-Age": String(PREFLIGHT_MAX_AGE_SECONDS),
          Vary: "Origin",
        },
      });
    },
    decorate(request, headers) {
      for (const [name, value] of Object.entries(this.responseHeaders(request))) {
        if (name === "Vary") headers.append(name, value);
        else headers.set(name, value);
      }
    },
    responseHeaders(request) {
      if (allowed.size === 0) return NO_HEADERS;
      const origin = allowedOrigin(request);
      if (!origin) return { Vary: "Origin" };
      return {
        Vary: "Origin",
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
      };
    },
  };
}
