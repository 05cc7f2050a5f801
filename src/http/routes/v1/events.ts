import { Elysia } from "elysia";
import type { Principal } from "../../../access/principal.ts";
import type { Store } from "../../../db/client.ts";
import { errors } from "../../../errors.ts";
import { eventJson, listEvents } from "../../../events/log.ts";
import { EVENT_TYPES, isEventType } from "../../../events/types.ts";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_LIMIT) {
    throw errors.invalidRequest([{ field: "limit", problem: `must be an integer from 1 to ${MAX_LIMIT}` }]);
  }
  return limit;
}

function parseTypes(raw: string | undefined): string[] {
  const types = (raw ?? "")
    .split(",")
    .map((type) => type.trim())
    .filter(Boolean);
  const unknown = types.filter((type) => !isEventType(type));
  if (unknown.length > 0) {
    throw errors.invalidRequest([
      { field: "type", problem: `must be one of ${EVENT_TYPES.join(", ")}`, allowed: EVENT_TYPES },
    ]);
  }
  return types;
}

/**
 * GET /v1/events?after=CURSOR&type=a,b&limit=N: the caller's account's events, oldest first after the
 * cursor, for clients without a webhook. Like /v1/usage it is the account's own record, so any valid
 * key reads it and it is not metered.
 */
export function eventsRoute(db: Store, authenticate: (authorization: string | undefined) => Promise<Principal>) {
  return new Elysia({ name: "waybill.events" }).get("/v1/events", async ({ headers, query }) => {
    const principal = await authenticate(headers.authorization);
    const page = await listEvents(db, principal, {
      after: query.after || undefined,
      types: parseTypes(query.type),
      limit: parseLimit(query.limit),
    });
    return { events: page.events.map(eventJson), next_cursor: page.nextCursor, auth_obj_id: principal.authObjId };
  });
}
