import { systemClock, type Clock } from "../clock.ts";
import type { Db, Store } from "../db/client.ts";
import { andThen, eachInTurn, runSteps, wait, type MaybePromise, type Steps } from "../db/maybe-async.ts";
import { inTransaction } from "../db/transaction.ts";
import { newId } from "../ids.ts";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { compactStoredBodies } from "./compact-migration.ts";
import type { Principal } from "../access/principal.ts";
import { composeBody, principalPartText, type CompactBody, type PrincipalPart } from "./compact-body.ts";
import { backfillLanes, laneKeyOfRequest } from "./lane-key.ts";
import type { AppendedReceipt, ReceiptEntry, ReceiptLedger } from "./ledger.ts";
import { ReceiptLog, type LogKeys } from "./log/log.ts";
import { resolveLogOrigin } from "./log/origin.ts";
import { ReceiptPartStore } from "./part-store.ts";
import { publishedKeySet, type PublishedKeySet } from "./public-key.ts";
import { portableReceiptRows } from "./rows/portable.ts";
import { sqliteReceiptRows } from "./rows/sqlite.ts";
import type { ReceiptRows } from "./rows/types.ts";
import { ensureSigningKey, newestSigningKey, signingKeyOf, type PublicKeyRecord, type SigningKey } from "./signer.ts";

export interface WaybillReceiptLedger extends ReceiptLedger {
  /** The keys a verifier needs, as GET /v1/receipts/public-key publishes them. */
  publishedKeys(): MaybePromise<PublishedKeySet>;
  /** The transparency log every receipt is a leaf of; join it to the group committer. */
  readonly log: ReceiptLog;
  /** The shared receipt parts; join them to the group committer too. */
  readonly parts: ReceiptPartStore;
  /** Another process may have rotated the signing key: sign with the newest from now on. */
  reloadSigningKey(): MaybePromise<void>;
}

/** The ledger of the SQLite file: every append is synchronous. */
export interface FileReceiptLedger extends WaybillReceiptLedger {
  append(tx: Store, entry: ReceiptEntry): AppendedReceipt;
  publishedKeys(): PublishedKeySet;
  reloadSigningKey(): void;
}

export interface LedgerOptions {
  clock?: Clock;
  /** Checkpoint origin and note key name (see log/origin.ts). */
  origin?: string;
  publicUrl?: string;
}

/**
 * The receipt ledger of one SQLite file. A receipt is a row whose body hash is the next leaf of the
 * log; its index is known from the log's head in memory (no read per append), and the checkpoint
 * that signs it is written by the log just before the batch commits.
 */
export function createReceiptLedger(db: Db, options: LedgerOptions = {}): FileReceiptLedger {
  const clock = options.clock ?? systemClock;
  const rows = sqliteReceiptRows(db);
  const key = ensureSigningKey(db, clock);
  const origin = db.$client.transaction(() => runSteps(resolveLogOrigin(rows, db, options)) as string).immediate();
  backfillLanes(db);
  const parts = new ReceiptPartStore(rows);
  compactStoredBodies(db, parts);
  const keys = new SigningKeys(rows, key);
  const log = ReceiptLog.open(rows, {
    origin,
    keys,
    clock,
    transaction: (work) => db.$client.transaction(() => work(db)).immediate(),
  }) as ReceiptLog;
  const ledger = ledgerOver(rows, { log, parts, keys, origin });
  return {
    ...ledger,
    append: (tx, entry) => ledger.append(tx, entry) as AppendedReceipt,
    publishedKeys: () => ledger.publishedKeys() as PublishedKeySet,
    reloadSigningKey: () => void (keys.replace(ensureSigningKey(db, clock)) as undefined),
  };
}

/**
 * The receipt ledger of any Store; on PostgreSQL, one log shared by every replica: each batch takes
 * the log's lock, catches up with the leaves other replicas appended, and signs with the newest key
 * (docs/receipts.md, "One log across replicas").
 */
export async function openReceiptLedger(store: Store, options: LedgerOptions = {}): Promise<WaybillReceiptLedger> {
  const clock = options.clock ?? systemClock;
  const rows = portableReceiptRows(store);
  const key = await inTransaction(store, async (tx) => runSteps(newestSigningKey(rows, tx, clock)));
  const origin = await inTransaction(store, async (tx) => runSteps(resolveLogOrigin(rows, tx, options)));
  const keys = new SigningKeys(rows, key);
  const log = await ReceiptLog.open(rows, {
    origin,
    keys,
    clock,
    transaction: (work) => inTransaction(store, async (tx) => work(tx)),
  });
  return ledgerOver(rows, { log, parts: new ReceiptPartStore(rows), keys, origin });
}

/** The key checkpoints are signed with; on a shared log, followed under the log's lock. */
class SigningKeys implements LogKeys {
  constructor(
    private readonly rows: ReceiptRows,
    private key: SigningKey,
  ) {}

  current(): SigningKey {
    return this.key;
  }

  replace(key: SigningKey): void {
    this.key = key;
  }

  follow(tx: Store, newestKid: string | undefined): MaybePromise<void> {
    if (newestKid === undefined || newestKid === this.key.kid) return;
    return runSteps(this.load(tx));
  }

  reload(): MaybePromise<void> {
    return runSteps(this.load());
  }

  private *load(tx?: Store): Steps<void> {
    const newest = yield* wait(this.rows.newestSigningKey(tx));
    if (newest) this.key = signingKeyOf(newest);
  }
}

interface LedgerParts {
  log: ReceiptLog;
  parts: ReceiptPartStore;
  keys: SigningKeys;
  origin: string;
}

function ledgerOver(rows: ReceiptRows, { log, parts, keys, origin }: LedgerParts): WaybillReceiptLedger {
  return {
    log,
    parts,
    append: (tx, entry) => appendReceipt(rows, tx, entry, log, parts),
    publishedKeys: () => {
      const records = rows.publicKeys();
      const published = (list: PublicKeyRecord[]) => publishedKeySet(list, keys.current().kid, origin);
      return records instanceof Promise ? records.then(published) : published(records);
    },
    reloadSigningKey: () => keys.reload(),
  };
}

/**
 * One receipt: its parts stored (or found), its row inserted, its entry staged as the log's next
 * leaf. Written without generators, with what is the same call after call (the principal's and
 * the model's texts) built once and no hex or Buffer made that nothing reads: on the SQLite file this runs on every answered call, synchronously,
 * with cold caches at low concurrency (docs/design/2026-11-answered-call-cpu.md).
 */
function appendReceipt(
  rows: ReceiptRows,
  tx: Store,
  entry: ReceiptEntry,
  log: ReceiptLog,
  parts: ReceiptPartStore,
): MaybePromise<AppendedReceipt> {
  const logIndex = log.nextIndex();
  const { principal } = entry;
  const request = entry.canonical?.request ?? canonicalJson(entry.request);
  const requestSha256 = Bun.SHA256.hash(request, "hex");
  const body: CompactBody = {
    logIndex,
    id: newId("rcpt", entry.issuedAt),
    issuedAt: entry.issuedAt,
    knownAt: entry.knownAt,
    skill: entry.skill,
    accountId: principal.accountId,
    asOf: entry.asOf,
    principal: principalTextOf(principal),
    request,
    requestSha256,
    factors: entry.canonical?.factors ?? canonicalJson(entry.factorVersions),
    model: modelText(entry.modelVersion),
    responseSha256: entry.responseSha256 ?? sha256Hex(canonicalJson(entry.response)),
  };
  const leafEntry = Bun.SHA256.hash(composeBody(body)) as Uint8Array;
  const insert = (ids: PartIds): MaybePromise<AppendedReceipt> =>
    andThen(
      rows.insertReceipt(tx, {
        seq: logIndex + 1,
        id: body.id,
        issuedAt: entry.issuedAt,
        skill: entry.skill,
        accountId: principal.accountId,
        principalPart: ids[0],
        requestPart: ids[1],
        factorsPart: ids[2],
        modelPart: ids[3],
        asOf: entry.asOf,
        knownAt: entry.knownAt,
        responseSha256: Buffer.from(body.responseSha256, "hex"),
        hash: leafEntry,
        lane: laneKeyOfRequest(entry.request),
        requestId: entry.usage.requestId,
        keyId: principal.keyId,
        latencyMs: entry.usage.latencyMs,
      }),
      () => {
        log.stage(leafEntry);
        return new Appended(body.id, logIndex, leafEntry);
      },
    );
  return andThen(partIds(tx, parts, body), insert);
}

/** The ids of a receipt's four parts: principal, request, factors, model. */
type PartIds = [number, number, number, number];

/**
 * The parts' ids one after another (on PostgreSQL they are statements on the batch's one
 * connection): synchronously while each is at hand (a Map hit, or the SQLite file), and in turn
 * from the first that is not.
 */
function partIds(tx: Store, parts: ReceiptPartStore, body: CompactBody): MaybePromise<PartIds> {
  const ids: PartIds = [0, 0, 0, 0];
  const texts = [body.principal, body.request, body.factors, body.model] as const;
  const stored = eachInTurn(PART_SLOTS, (slot) =>
    andThen(parts.idOf(tx, texts[slot], slot === 1 ? body.requestSha256 : undefined), (id) => {
      ids[slot] = id;
    }),
  );
  return andThen(stored, () => ids);
}

const PART_SLOTS = [0, 1, 2, 3] as const;

/** An appended receipt; its leaf entry's hex is made only if asked for (the answered path does not). */
class Appended implements AppendedReceipt {
  readonly seq: number;

  constructor(
    readonly id: string,
    readonly logIndex: number,
    private readonly leafEntry: Uint8Array,
  ) {
    this.seq = logIndex + 1;
  }

  get hash(): string {
    return Buffer.from(this.leafEntry).toString("hex");
  }
}

/**
 * The principal part's text of a key grant. The grant is one object per key while the key index
 * holds it (authenticate hands out the same one), so its text is built once per grant, not per call;
 * the fields are compared so a grant object changed in place is never served stale text.
 */
const principalTexts = new WeakMap<Principal, { grant: PrincipalPart; text: string }>();

function principalTextOf(principal: Principal): string {
  const known = principalTexts.get(principal);
  if (known && sameGrant(known.grant, principal)) return known.text;
  const part: PrincipalPart = {
    auth_obj_id: principal.authObjId,
    key_id: principal.keyId,
    scopes: principal.scopes ? [...principal.scopes] : null,
    tier: principal.tier,
  };
  const text = principalPartText(part);
  principalTexts.set(principal, { grant: part, text });
  return text;
}

function sameGrant(grant: PrincipalPart, principal: Principal): boolean {
  return (
    grant.auth_obj_id === principal.authObjId &&
    grant.key_id === principal.keyId &&
    grant.tier === principal.tier &&
    sameScopes(grant.scopes, principal.scopes)
  );
}

function sameScopes(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((scope, index) => scope === b[index]);
}

/** The model version as JSON text, the same string as long as the version is (a Map hit for its part id). */
let lastModel: { version: string; text: string } | undefined;

function modelText(version: string): string {
  if (lastModel?.version !== version) lastModel = { version, text: JSON.stringify(version) };
  return lastModel.text;
}
