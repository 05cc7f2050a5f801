import type { Tier } from "../../src/access/tiers.ts";
import { capitalize } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";
import { ChartAssets } from "../usage/usage-page.tsx";
import { MonthUsageSections, type MonthUsage } from "../usage/usage-sections.tsx";

export interface AccountUsageProps extends MonthUsage {
  viewer: Viewer;
  email: string;
  tier: Tier;
  month: string;
}

/** An admin's view of one account's usage; receipts stay their owner's, so they are listed but not linked. */
export function AccountUsagePage(props: AccountUsageProps) {
  return (
    <AppLayout title={`Usage of ${props.email}`} viewer={props.viewer} section="admin">
      <ChartAssets />
      <div class="page-head">
        <p>
          <a href="/dashboard/admin">← Accounts</a>
        </p>
        <h1 class="break" safe>
          {props.email}
        </h1>
        <p class="muted" safe>
          {`${capitalize(props.tier)} tier · ${props.month}`}
        </p>
      </div>
      <MonthUsageSections usage={props} receiptLinks={false} />
    </AppLayout>
  );
}
