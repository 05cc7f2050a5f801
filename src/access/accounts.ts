import { asc, eq } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { announceChange, markChanged } from "../db/changes.ts";
import type { accounts } from "../db/schema.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { newId } from "../ids.ts";
import { isTier, TIERS, type Tier } from "./tiers.ts";

export type Account = typeof accounts.$inferSelect;

/** A refusal of an account or key operation, with a message meant for the operator. */
export class AccessError extends Error {}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(normalized) || normalized.length > 254)
    throw new AccessError(`'${email}' is not an email address.`);
  return normalized;
}

export function parseTier(value: string): Tier {
  if (!isTier(value)) throw new AccessError(`Unknown tier '${value}'; use one of ${TIERS.join(", ")}.`);
  return value;
}

export async function hashPassword(password: string): Promise<string> {
  if (password.length < 10) throw new AccessError("A password needs at least 10 characters.");
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

export interface NewAccount {
  email: string;
  tier?: Tier;
  isAdmin?: boolean;
  passwordHash?: string | null;
}

export function createAccount(db: Store, input: NewAccount, now: number): Promise<Account> {
  const email = normalizeEmail(input.email);
  return inTransaction(db, async (tx) => {
    if (await findAccountByEmail(tx, email)) throw new AccessError(`An account for ${email} already exists.`);
    const [created] = await tx
      .insert(tx.t.accounts)
      .values({
        id: newId("acct", now),
        email,
        tier: input.tier ?? "explorer",
        isAdmin: input.isAdmin ?? false,
        passwordHash: input.passwordHash ?? null,
        createdAt: now,
      })
      .returning();
    if (!created) throw new Error(`inserting the account for ${email} returned no row`);
    return created;
  });
}

export function findAccountByEmail(db: Store, email: string): Promise<Account | undefined> {
  const { accounts } = db.t;
  return first(db.select().from(accounts).where(eq(accounts.email, email.trim().toLowerCase())));
}

export function findAccountById(db: Store, id: string): Promise<Account | undefined> {
  const { accounts } = db.t;
  return first(db.select().from(accounts).where(eq(accounts.id, id)));
}

export async function requireAccountByEmail(db: Store, email: string): Promise<Account> {
  const account = await findAccountByEmail(db, email);
  if (!account) throw new AccessError(`No account for ${email.trim().toLowerCase()}.`);
  return account;
}

export async function setTier(db: Store, accountId: string, tier: Tier): Promise<Account> {
  const { accounts } = db.t;
  const updated = await inTransaction(db, async (tx) => {
    const row = await first(tx.update(accounts).set({ tier }).where(eq(accounts.id, accountId)).returning());
    if (row) await announceChange(tx); // every replica's key index carries each grant's tier
    return row;
  });
  if (!updated) throw new AccessError(`No account ${accountId}.`);
  markChanged(db);
  return updated;
}

export function listAccounts(db: Store): Promise<Account[]> {
  const { accounts } = db.t;
  return db.select().from(accounts).orderBy(asc(accounts.createdAt));
}

export async function hasAdmin(db: Store): Promise<boolean> {
  const { accounts } = db.t;
  return (
    (await first(db.select({ id: accounts.id }).from(accounts).where(eq(accounts.isAdmin, true)).limit(1))) !==
    undefined
  );
}
