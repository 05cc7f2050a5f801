import type { Db } from "./client.ts";

const tails = new WeakMap<object, Promise<unknown>>();

/**
 * One SQLite connection holds at most one transaction, and a transaction that awaits yields the
 * event loop: the transactions on a connection (group-commit batches, inTransaction) take turns
 * here, each waiting for the one before it to end, instead of nesting by accident.
 */
export function exclusively<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(db.$client) ?? Promise.resolve();
  const run = previous.then(work, work);
  tails.set(
    db.$client,
    run.then(
      () => undefined,
      () => undefined,
    ),
  );
  return run;
}
