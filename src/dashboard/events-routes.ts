import { Elysia } from "elysia";
import { EventsPage } from "../../views/events/events-page.tsx";
import { eventJson, recentEvents } from "../events/log.ts";
import { isEventType } from "../events/types.ts";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";

const FEED_LENGTH = 100;

/** The account's event feed, newest first. */
export function eventsRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-events" }).use(sessionGuard(context)).get(
    "/dashboard/events",
    async ({ query, signedIn }) => {
      const type = typeof query.type === "string" && isEventType(query.type) ? query.type : undefined;
      const events = (
        await recentEvents(context.db, signedIn.account.id, { types: type ? [type] : [], limit: FEED_LENGTH })
      ).map(eventJson);
      return pageResponse(EventsPage({ viewer: signedIn.viewer, events, type }));
    },
    { signedIn: "account" },
  );
}
