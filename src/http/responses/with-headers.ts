/**
 * The response with its headers changed: in place when they can be (the body stays the bytes or text
 * it was made from, which Bun sends with a Content-Length, instead of becoming a stream read back chunk
 * by chunk), else on a copy.
 */
export function withHeaders(response: Response, change: (headers: Headers) => void): Response {
  try {
    change(response.headers);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    change(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
