import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { settings } from "../db/schema.ts";

export type SettingName = "setup_token_sha256" | "csrf_secret";

export function readSetting(db: Db, name: SettingName): string | undefined {
  return db.select({ value: settings.value }).from(settings).where(eq(settings.key, name)).get()?.value;
}

export function writeSetting(db: Db, name: SettingName, value: string): void {
  db.insert(settings).values({ key: name, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
}

export function deleteSetting(db: Db, name: SettingName): void {
  db.delete(settings).where(eq(settings.key, name)).run();
}
