import type { Db, Store } from "../db/client.ts";
import type { DatabaseLocation } from "../db/location.ts";
import type { CommandResult } from "./result.ts";

/** Flag values as node:util parseArgs returns them. */
export type Values = Record<string, string | boolean | undefined>;

export interface Flag {
  type: "string" | "boolean";
  /** The value's placeholder in the usage line and help, e.g. `FILE`. */
  value?: string;
  /** Shown without brackets in the usage line; the command itself still checks it. */
  required?: boolean;
  /** A line (or lines) of `waybill COMMAND --help`; flags without one are described by the summary. */
  help?: string;
}

/** What a command was called with, after parsing. */
export interface Invocation {
  values: Values;
  positionals: string[];
  json: boolean;
  /** A string flag's value, undefined when absent. */
  flag(name: string): string | undefined;
  /** The origin printed links must use when one was given (--public-url, WAYBILL_PUBLIC_URL); checks it. */
  givenLinkOrigin(): string | undefined;
}

/** An invocation of a command working on an opened database. */
export interface StoreInvocation extends Invocation {
  store: Store;
  /** The SQLite file's handle; null on PostgreSQL. */
  sqlite: Db | null;
  /** Where printed links point (docs/operations.md): --public-url, WAYBILL_PUBLIC_URL, what serve recorded, the default. */
  linkOrigin(): Promise<string>;
}

interface Described {
  /** One or two words: `serve`, `accounts create`. */
  name: string;
  /** The first line of its help, and its row in `--help` and the README. */
  summary: string;
  /** Positional operands in the usage line, e.g. `SOURCE FILE`. */
  operands?: string;
  flags: Record<string, Flag>;
  /** Further lines of its help, after the flags. */
  notes?: string;
}

/** Runs without opening a database (`verify`, `help`). */
interface WithoutDatabase extends Described {
  database: "none";
  run(invocation: Invocation): Promise<CommandResult>;
}

/** The server: main.ts, the composition root, builds and starts it, and it opens its own database. */
interface Server extends Described {
  database: "server";
}

/** Gets where the database is, and opens it itself (`migrate`). */
interface WithLocation extends Described {
  database: "location";
  run(invocation: Invocation, location: DatabaseLocation): Promise<CommandResult>;
}

/** Runs on the opened database; `existing`: a missing SQLite file is refused rather than created. */
export interface WithStore extends Described {
  database: "creates" | "existing";
  /** Why it refuses PostgreSQL, when it does. */
  notOnPostgres?: string;
  /** Checks its arguments before the database is opened (or created) and returns what runs on it. */
  start(invocation: Invocation): Promise<(opened: StoreInvocation) => Promise<CommandResult>>;
}

export type Command = Server | WithoutDatabase | WithLocation | WithStore;

/**
 * A command on the database. `prepare` (optional) checks arguments before any file is created; its result
 * is handed to `run`, so input read once (stdin) is not read twice.
 */
export function storeCommand<Prepared = undefined>(
  spec: Omit<WithStore, "start"> & {
    prepare?: (invocation: Invocation) => Promise<Prepared>;
    run(opened: StoreInvocation, prepared: Prepared): Promise<CommandResult>;
  },
): WithStore {
  const { prepare, run, ...described } = spec;
  return {
    ...described,
    async start(invocation) {
      const prepared = prepare ? await prepare(invocation) : (undefined as Prepared);
      return (opened) => run(opened, prepared);
    },
  };
}
