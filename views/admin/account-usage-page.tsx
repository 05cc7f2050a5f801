import type { Tier } from "../../src/access/tiers.ts";
import type { RecentCall } from "../../src/metering/usage-report.ts";
import { capitalize } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";
import { QuotaMeter } from "../usage/quota-meter.tsx";
import { ChartAssets } from "../usage/usage-page.tsx";
import { DailyCallsChart, RecentCallsTable, type DailyChart } from "../usage/usage-sections.tsx";

export interface AccountUsageProps {
  viewer: Viewer;
  email: string;
  tier: Tier;
  month: string;
  used: number;
  refused: number;
  perMonth: number;
  chart: DailyChart;
  calls: readonly RecentCall[];
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
      <section class="card">
        <QuotaMeter
          used={props.used}
          refused={props.refused}
          limit={props.perMonth}
          label="Answered calls this month"
        />
      </section>
      <DailyCallsChart chart={props.chart} title="Calls per day" />
      <RecentCallsTable calls={props.calls} receiptLinks={false} />
    </AppLayout>
  );
}
