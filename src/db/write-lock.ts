import type { Db } from "./client.ts";

const tails = new WeakMap<object, Promise<unknown>>();
const holders = new WeakMap<object, number>();

/**
 * One SQLite connection holds at most one transaction, and an awaited transaction yields the
 * event loop: transactions on the same connection take turns here instead of nesting by accident.
 */
export function exclusively<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(db.$client) ?? Promise.resolve();
  const run = previous.then(work, work);
  holdWhile(db, run);
  return run;
}

/** Mark the connection busy until `running` settles (a transaction that went asynchronous). */
export function holdWhile(db: Db, running: Promise<unknown>): void {
  const client = db.$client;
  holders.set(client, (holders.get(client) ?? 0) + 1);
  const settled = running.then(
    () => release(client),
    () => release(client),
  );
  tails.set(client, settled);
}

/** Whether a transaction on this connection is waiting on something right now. */
export function isLocked(db: Db): boolean {
  return (holders.get(db.$client) ?? 0) > 0;
}

function release(client: object): void {
  holders.set(client, (holders.get(client) ?? 1) - 1);
}
