import type { SeriesFreshness } from "../../src/reference/series/freshness.ts";
import { formatCount } from "../format.ts";
import { TableScroll } from "../data-table.tsx";

/** One family of reference series (EIA diesel, USDA AMS lanes, ...) as the admin page shows it. */
export interface DataFamilyRow {
  family: string;
  cadence: string;
  series: number;
  latest: string;
  publishedOn: string;
  oldestAgeDays: number;
  overdue: number;
}

/** Series grouped by family: the newest figure of the family and how many of its series are overdue. */
export function dataFamilies(series: readonly SeriesFreshness[]): DataFamilyRow[] {
  const byFamily = new Map<string, DataFamilyRow>();
  for (const s of series) {
    const row = byFamily.get(s.family) ?? {
      family: s.family,
      cadence: s.cadence,
      series: 0,
      latest: s.latest,
      publishedOn: s.publishedOn,
      oldestAgeDays: s.ageDays,
      overdue: 0,
    };
    row.series++;
    if (s.latest > row.latest) {
      row.latest = s.latest;
      row.publishedOn = s.publishedOn;
    }
    row.oldestAgeDays = Math.max(row.oldestAgeDays, s.ageDays);
    if (s.overdue) row.overdue++;
    byFamily.set(s.family, row);
  }
  return [...byFamily.values()].sort((a, b) => a.family.localeCompare(b.family));
}

export function DataFreshnessSection({ families }: { families: readonly DataFamilyRow[] }) {
  return (
    <section class="card" id="reference-data">
      <h2>Reference data</h2>
      <p class="muted">
        Newest figure per source, when it was published, and series whose next figure is past due. `waybill data sync`
        fetches new ones.
      </p>
      <TableScroll label="Reference data">
        <table class="data-freshness">
          <thead>
            <tr>
              <th>Source</th>
              <th>Cadence</th>
              <th class="num">Series</th>
              <th>Newest</th>
              <th>Published</th>
              <th class="num">Oldest (days)</th>
              <th class="num">Overdue</th>
            </tr>
          </thead>
          <tbody>
            {families.map((f) => (
              <tr class={f.overdue > 0 ? "overdue" : undefined}>
                <td safe>{f.family}</td>
                <td safe>{f.cadence}</td>
                <td class="num" safe>
                  {formatCount(f.series)}
                </td>
                <td safe>{f.latest}</td>
                <td safe>{f.publishedOn}</td>
                <td class="num" safe>
                  {formatCount(f.oldestAgeDays)}
                </td>
                <td class="num" safe>
                  {formatCount(f.overdue)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
