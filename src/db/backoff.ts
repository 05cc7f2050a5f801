/**
 * Background work that failed (most often: the database is unreachable) waits before it tries
 * again: 1 s after the first failure, doubling up to 10 s, so a restarting PostgreSQL is not
 * hammered and work resumes within 10 s of its return (docs/postgresql.md, "When PostgreSQL goes
 * away"). A success starts over.
 */
export class Backoff {
  private failures = 0;
  private until = 0;

  constructor(
    private readonly firstMs = 1000,
    private readonly maxMs = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether the wait after the latest failure is over. */
  ready(): boolean {
    return this.now() >= this.until;
  }

  succeeded(): void {
    this.failures = 0;
    this.until = 0;
  }

  /** Count a failure; returns how long to wait before the next try, in ms. */
  failed(): number {
    this.failures += 1;
    const delay = Math.min(this.maxMs, this.firstMs * 2 ** (this.failures - 1));
    this.until = this.now() + delay;
    return delay;
  }
}
