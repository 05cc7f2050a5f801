import { eq } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first, inTransaction } from "../db/transaction.ts";

export type SettingName = "setup_token_sha256" | "csrf_secret" | "link_origin";

export async function readSetting(db: Store, name: SettingName): Promise<string | undefined> {
  const { settings } = db.t;
  return (await first(db.select({ value: settings.value }).from(settings).where(eq(settings.key, name))))?.value;
}

export async function writeSetting(db: Store, name: SettingName, value: string): Promise<void> {
  const { settings } = db.t;
  await inTransaction(db, async (tx) => {
    await tx.insert(settings).values({ key: name, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
  });
}

/** The stored value, or `proposed` stored now if there was none: replicas starting together agree on one. */
export async function settingOnce(db: Store, name: SettingName, proposed: string): Promise<string> {
  await inTransaction(db, async (tx) => {
    await tx.insert(tx.t.settings).values({ key: name, value: proposed }).onConflictDoNothing();
  });
  return (await readSetting(db, name)) ?? proposed;
}

export async function deleteSetting(db: Store, name: SettingName): Promise<void> {
  const { settings } = db.t;
  await inTransaction(db, async (tx) => {
    await tx.delete(settings).where(eq(settings.key, name));
  });
}
