import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { markChanged } from "../db/changes.ts";
import { accounts } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { isTier, TIERS, type Tier } from "./tiers.ts";

export type Account = typeof accounts.$inferSelect;

/** A refusal of an account or key operation, with a message meant for the operator. */
export class AccessError extends Error {}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(normalized) || normalized.length > 254) throw new AccessError(`'${email}' is not an email address.`);
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

export function createAccount(db: Db, input: NewAccount, now: number): Account {
  const email = normalizeEmail(input.email);
  if (findAccountByEmail(db, email)) throw new AccessError(`An account for ${email} already exists.`);
  return db
    .insert(accounts)
    .values({
      id: newId("acct", now),
      email,
      tier: input.tier ?? "explorer",
      isAdmin: input.isAdmin ?? false,
      passwordHash: input.passwordHash ?? null,
      createdAt: now,
    })
    .returning()
    .get();
}

export function findAccountByEmail(db: Db, email: string): Account | undefined {
  return db.select().from(accounts).where(eq(accounts.email, email.trim().toLowerCase())).get();
}

export function findAccountById(db: Db, id: string): Account | undefined {
  return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

export function requireAccountByEmail(db: Db, email: string): Account {
  const account = findAccountByEmail(db, email);
  if (!account) throw new AccessError(`No account for ${email.trim().toLowerCase()}.`);
  return account;
}

export function setTier(db: Db, accountId: string, tier: Tier): Account {
  const updated = db.update(accounts).set({ tier }).where(eq(accounts.id, accountId)).returning().get();
  if (!updated) throw new AccessError(`No account ${accountId}.`);
  markChanged(db); // the key index carries each grant's tier
  return updated;
}

export function listAccounts(db: Db): Account[] {
  return db.select().from(accounts).orderBy(asc(accounts.createdAt)).all();
}

export function hasAdmin(db: Db): boolean {
  return db.select({ id: accounts.id }).from(accounts).where(eq(accounts.isAdmin, true)).limit(1).get() !== undefined;
}
