import { newId } from "../../ids.ts";

/**
 * A caller's own X-Request-Id is kept when it is a plausible correlation id (letters, digits and
 * `._:-`, at most 128 characters), so one id follows a call through the caller's logs and ours.
 * Anything else (empty, too long, spaces, control characters) is replaced by a fresh `req_` id.
 */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming !== null && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : newId("req");
}
