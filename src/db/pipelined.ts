/**
 * Statements started together on one PostgreSQL connection travel in one round trip (the driver
 * pipelines them); wait for all of them, then fail with the first failure in the order they were
 * started, as running them one after another would have (a statement after a failed one only finds
 * the transaction aborted). Nothing is left running unobserved.
 */
export async function allInOrder(results: readonly (void | Promise<void>)[]): Promise<void> {
  const settled = await Promise.allSettled(results);
  for (const outcome of settled) if (outcome.status === "rejected") throw outcome.reason;
}
