import { tierAtLeast, TIERS } from "../src/access/tiers.ts";
import type { CatalogEntry } from "../src/skills/catalog.ts";
import type { LimitsTable } from "../src/metering/limits.ts";
import { capitalize, formatCount } from "./format.ts";
import { PlainLayout } from "./layout.tsx";
import { TableScroll } from "./data-table.tsx";

/** /pricing: where TIER_REQUIRED's upgrade_url points. Tiers are set by the instance's admin. */
export function PricingPage({ limits, skills }: { limits: LimitsTable; skills: readonly CatalogEntry[] }) {
  return (
    <PlainLayout title="Tiers">
      <section class="card wide">
        <h1>Tiers</h1>
        <p class="muted">Your administrator sets your tier. Each tier includes every skill of the tiers below it.</p>
        <TableScroll label="Tiers">
          <table>
            <thead>
              <tr>
                <th></th>
                {TIERS.map((tier) => (
                  <th safe>{capitalize(tier)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th>Calls per minute</th>
                {TIERS.map((tier) => (
                  <td class="num" safe>
                    {formatCount(limits[tier].perMinute)}
                  </td>
                ))}
              </tr>
              <tr>
                <th>Calls per month</th>
                {TIERS.map((tier) => (
                  <td class="num" safe>
                    {formatCount(limits[tier].perMonth)}
                  </td>
                ))}
              </tr>
              {skills.map((skill) => (
                <tr>
                  <th class="mono" safe>
                    {skill.name}
                  </th>
                  {TIERS.map((tier) => (
                    <td>{tierAtLeast(tier, skill.minimumTier) ? "✓" : <span class="muted">—</span>}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        <p>
          <a href="/dashboard">Back to the dashboard</a>
        </p>
      </section>
    </PlainLayout>
  );
}
