import { fillPlaceholders, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Store } from "./client.ts";
import { pgOf } from "./postgres.ts";

/** What drizzle's builder turned a query into: the text, and its parameters (placeholders among them). */
interface Built {
  text: string;
  params: unknown[];
}

/** drizzle's internals of a PostgreSQL handle (a pool or a transaction) this module reaches at run time. */
interface PgInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { client: { unsafe(text: string, params: unknown[]): PromiseLike<Iterable<unknown>> } };
}

function pgHandleOf(store: Store): PgInternals {
  // `dialect` and `session` are drizzle's internal members, missing from its public type; checked here.
  const handle = pgOf(store) as unknown as Partial<PgInternals>;
  if (typeof handle.session?.client?.unsafe !== "function" || !handle.dialect)
    throw new Error("a prebuilt statement runs on drizzle's Bun SQL PostgreSQL handle");
  return handle as PgInternals;
}

/**
 * A PostgreSQL statement on the answered path whose text drizzle builds once, not on every run:
 * building a large `sql` template or a multi-row insert costs the replica more CPU than PostgreSQL
 * spends running the statement (docs/postgresql.md, "Round trips and CPU per answer"). What changes
 * from run to run is a `sql.placeholder(name)` (in a builder's values too, where the column's
 * encoder still applies); `shape` names a variant (a multi-row statement's row count) and `build`
 * writes the query for it. Runs on the handle given: a pool or the batch's transaction.
 */
export class PgStatement<Shape extends string | number = string> {
  private readonly built = new Map<Shape, Built>();

  constructor(
    private readonly build: (store: Store, shape: Shape) => SQLWrapper,
    /** Variants kept; past it the oldest is built again when next used. */
    private readonly keep = 64,
  ) {}

  async rows<T>(store: Store, shape: Shape, values: Record<string, unknown>): Promise<T[]> {
    const handle = pgHandleOf(store);
    const { text, params } = this.builtFor(store, handle, shape);
    return [...((await handle.session.client.unsafe(text, fillPlaceholders(params, values))) as Iterable<T>)];
  }

  private builtFor(store: Store, handle: PgInternals, shape: Shape): Built {
    const known = this.built.get(shape);
    if (known) return known;
    const query = handle.dialect.sqlToQuery(this.build(store, shape).getSQL());
    const built = { text: query.sql, params: query.params };
    if (this.built.size >= this.keep) {
      const [oldest] = this.built.keys();
      if (oldest !== undefined) this.built.delete(oldest);
    }
    this.built.set(shape, built);
    return built;
  }
}
