import { log } from "./log.ts";

/**
 * A serving process outlives any one failure: a promise rejected with nobody listening (a cache
 * reload while the database is away, say) or an exception thrown from a callback is logged, and the
 * server keeps answering (docs/postgresql.md, "When PostgreSQL goes away"). Without these handlers
 * Bun ends the process on the first one. Installed by `serve` only: a one-shot command still fails.
 */
export function keepServingOnStrayErrors(): void {
  process.on("unhandledRejection", (reason) => log.failure("unhandled_rejection", reason));
  process.on("uncaughtException", (error) => log.failure("uncaught_exception", error));
}
