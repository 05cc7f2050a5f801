import { AppLayout, type Viewer } from "../layout.tsx";
import { MonthUsageSections, type MonthUsage } from "./usage-sections.tsx";
import { assetUrl } from "../../src/dashboard/static.ts";

export interface UsagePageProps extends MonthUsage {
  viewer: Viewer;
  month: string;
}

/** Scripts and styles the chart needs, loaded only on pages that draw one. */
export function ChartAssets() {
  return (
    <>
      <link rel="stylesheet" href={assetUrl("uPlot.min.css")} />
      <script src={assetUrl("uPlot.iife.min.js")} defer></script>
      <script src={assetUrl("usage-chart.js")} defer></script>
    </>
  );
}

export function UsagePage(props: UsagePageProps) {
  return (
    <AppLayout title="Usage" viewer={props.viewer} section="usage">
      <ChartAssets />
      <div class="page-head">
        <h1>Usage</h1>
        <p class="muted" safe>
          {`${props.month}, in UTC. Only answered calls count toward the monthly quota.`}
        </p>
      </div>
      <MonthUsageSections usage={props} receiptLinks />
      <p>
        <a href="/dashboard/usage.csv" download="" safe>{`Download this month's calls (CSV, ${props.month})`}</a>
      </p>
    </AppLayout>
  );
}
