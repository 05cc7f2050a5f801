/**
 * Turning views into responses. Every dashboard page goes out with a strict CSP (scripts, styles
 * and images only from this origin; no inline script or style), which makes any escaping slip a
 * dead letter rather than a script, and with no-store, because pages show account data.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** htmx 4 marks its requests with `HX-Request: true`; without it the browser wants a whole page. */
export function isHtmxRequest(request: Request): boolean {
  return request.headers.get("hx-request") === "true";
}

export async function htmlResponse(
  view: JSX.Element,
  init: { status?: number; headers?: Record<string, string> } = {},
): Promise<Response> {
  return new Response(await view, { status: init.status ?? 200, headers: { ...PAGE_HEADERS, ...init.headers } });
}

/** A whole document (plain navigation, or a form posted without JavaScript). */
export async function pageResponse(
  view: JSX.Element,
  init: { status?: number; headers?: Record<string, string> } = {},
): Promise<Response> {
  return htmlResponse(`<!doctype html>${await view}`, init);
}

/** After a successful POST: a 303 for plain forms (so reload does not re-post), HX-Redirect for htmx. */
