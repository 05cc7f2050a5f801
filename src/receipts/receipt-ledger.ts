import { systemClock, type Clock } from "../clock.ts";
import type { Store } from "../db/client.ts";
import { inTransaction } from "../db/transaction.ts";
import { newId } from "../ids.ts";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import type { Principal } from "../access/principal.ts";
import { composeBody, principalPartText, type CompactBody, type PrincipalPart } from "./compact-body.ts";
import { laneKeyOfRequest } from "./lane-key.ts";
import type { LedgerStorage } from "./ledger-storage.ts";
import type { AppendedReceipt, ReceiptEntry, ReceiptLedger } from "./ledger.ts";
import { ReceiptLog, type LogKeys } from "./log/log.ts";
import { resolveLogOrigin } from "./log/origin.ts";
import { ReceiptPartStore } from "./part-store.ts";
import { publishedKeySet, type PublishedKeySet } from "./public-key.ts";
import type { ReceiptRows } from "./rows/types.ts";
import { ensureSigningKey, signingKeyOf, type SigningKey } from "./signer.ts";

export interface WaybillReceiptLedger extends ReceiptLedger {
  /** The keys a verifier needs, as GET /v1/receipts/public-key publishes them. */
  publishedKeys(): Promise<PublishedKeySet>;
  /** The transparency log every receipt is a leaf of; join it to the group committer. */
  readonly log: ReceiptLog;
  /** The shared receipt parts; join them to the group committer too. */
  readonly parts: ReceiptPartStore;
  /** Another process may have rotated the signing key: sign with the newest from now on. */
  reloadSigningKey(): Promise<void>;
}

export interface LedgerOptions {
  clock?: Clock;
  /** Checkpoint origin and note key name (see log/origin.ts). */
  origin?: string;
  publicUrl?: string;
}

/**
 * The receipt ledger of a Store. A receipt is a row whose body hash is the next leaf of the log;
 * its index is known from the log's head in memory (no read per append), and the checkpoint that
 * signs it is written by the log just before the batch commits. On PostgreSQL one log is shared by
 * every replica: each batch takes the log's lock, catches up with the leaves other replicas
 * appended, and signs with the newest key (docs/receipts.md, "One log across replicas").
 */
export async function openReceiptLedger(
  store: Store,
  { rows, upgrade }: LedgerStorage,
  options: LedgerOptions = {},
): Promise<WaybillReceiptLedger> {
  const clock = options.clock ?? systemClock;
  const key = await ensureSigningKey(rows, store, clock);
  const origin = await inTransaction(store, (tx) => resolveLogOrigin(rows, tx, options));
  const parts = new ReceiptPartStore(rows);
  await upgrade?.(parts);
  const keys = new SigningKeys(rows, key);
  const log = await ReceiptLog.open(rows, {
    origin,
    keys,
    clock,
    transaction: (work) => inTransaction(store, work),
  });
  return ledgerOver(rows, { log, parts, keys, origin });
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

  async follow(tx: Store, newestKid: string | undefined): Promise<void> {
    if (newestKid !== undefined && newestKid !== this.key.kid) await this.reload(tx);
  }

  async reload(tx?: Store): Promise<void> {
    const newest = await this.rows.newestSigningKey(tx);
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
    publishedKeys: async () => publishedKeySet(await rows.publicKeys(), keys.current().kid, origin),
    reloadSigningKey: () => keys.reload(),
  };
}

/**
 * One receipt: its parts stored (or found), its row inserted, its entry staged as the log's next
 * leaf. What is the same call after call (the principal's and the model's texts) is built once and
 * no hex or Buffer is made that nothing reads: this runs on every answered call, with cold caches
 * at low concurrency (docs/design/2026-11-answered-call-cpu.md).
 */
async function appendReceipt(
  rows: ReceiptRows,
  tx: Store,
  entry: ReceiptEntry,
  log: ReceiptLog,
  parts: ReceiptPartStore,
): Promise<AppendedReceipt> {
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
  const ids = await partIds(tx, parts, body);
  await rows.insertReceipt(tx, {
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
  });
  log.stage(leafEntry);
  return new Appended(body.id, logIndex, leafEntry);
}

/** The ids of a receipt's four parts: principal, request, factors, model. */
type PartIds = [number, number, number, number];

/**
 * The parts' ids one after another (on PostgreSQL they are statements on the batch's one
 * connection); a text seen before is a Map hit, with nothing awaited.
 */
async function partIds(tx: Store, parts: ReceiptPartStore, body: CompactBody): Promise<PartIds> {
  const ids: PartIds = [0, 0, 0, 0];
  const texts = [body.principal, body.request, body.factors, body.model] as const;
  for (const slot of PART_SLOTS)
    ids[slot] =
      parts.remembered(texts[slot]) ?? (await parts.idOf(tx, texts[slot], slot === 1 ? body.requestSha256 : undefined));
  return ids;
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
