import type { Db } from "../../src/db/client.ts";

export function answeredInDb(db: Db, accountId: string, month: string): number {
  return (
    db.$client
      .query<{ answered: number }, [string, string]>(
        "SELECT answered FROM monthly_usage WHERE account_id = ? AND month = ?",
      )
      .get(accountId, month)?.answered ?? 0
  );
}
