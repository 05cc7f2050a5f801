/**
 * Statements started together on one PostgreSQL connection travel in one round trip (the driver
 * pipelines them); wait for all of them, then fail with the first failure in the order they were
 * started, as running them one after another would have (a statement after a failed one only finds
 * the transaction aborted). Nothing is left running unobserved. Synchronous results (the SQLite
 * file's) stay synchronous.
 */
export function allInOrder(results: readonly (void | Promise<void>)[]): void | Promise<void> {
  if (!results.some((result) => result instanceof Promise)) return;
  return Promise.allSettled(results).then((settled) => {
    for (const outcome of settled) if (outcome.status === "rejected") throw outcome.reason;
  });
}
