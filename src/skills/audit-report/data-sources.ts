import { Type, type Static } from "@sinclair/typebox";
import type { Store } from "../../db/client.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import type { OwnReceipt } from "../../receipts/store.ts";
import { DAY_MS } from "../../dates.ts";

export const DataSourcesSchema = Type.Object({
  report_type: Type.Literal("DATA_SOURCES"),
  as_of: Type.String(),
  known_at: Type.String(),
  series: Type.Array(
    Type.Object({
      series_id: Type.String(),
      source: Type.Union([Type.String(), Type.Null()]),
      latest_observation_date: Type.Union([Type.String(), Type.Null()]),
      latest_value: Type.Union([Type.Number(), Type.Null()]),
      import_id: Type.Union([Type.String(), Type.Null()]),
      fetched_at: Type.Union([Type.String(), Type.Null()]),
      /** Whole days from the latest observation to as_of: how stale the series is today. */
      age_days: Type.Union([Type.Integer(), Type.Null()]),
      /** The anchor receipt's answer used a figure of this series. */
      used_by_receipt: Type.Boolean(),
    }),
  ),
});
export type DataSources = Static<typeof DataSourcesSchema>;

/** Every stored series and its freshness in today's data view, marking those the anchor receipt used. */
export async function dataSources(store: Store, view: ReferenceView, anchor: OwnReceipt): Promise<DataSources> {
  const { observations, dataImports } = store.t;
  // Sorted here, by code point: a database's collation (PostgreSQL's follows its locale) would order `_` and `-` its own way.
  const seriesIds = (await store.selectDistinct({ seriesId: observations.seriesId }).from(observations)).sort((a, b) =>
    a.seriesId < b.seriesId ? -1 : a.seriesId > b.seriesId ? 1 : 0,
  );
  const sourceOfImport = new Map(
    (await store.select({ id: dataImports.id, source: dataImports.source }).from(dataImports)).map((row) => [
      row.id,
      row.source,
    ]),
  );
  const used = new Set((anchor.body?.factor_versions ?? []).map((factor) => factor.series_id));
  const asOfMs = Date.parse(view.asOf);

  return {
    report_type: "DATA_SOURCES",
    as_of: view.asOf,
    known_at: new Date(view.knownAt).toISOString(),
    series: seriesIds.map(({ seriesId }) => {
      const latest = view.latest(seriesId);
      return {
        series_id: seriesId,
        source: latest ? (sourceOfImport.get(latest.importId) ?? null) : null,
        latest_observation_date: latest?.observedOn ?? null,
        latest_value: latest?.value ?? null,
        import_id: latest?.importId ?? null,
        fetched_at: latest ? new Date(latest.fetchedAt).toISOString() : null,
        age_days: latest ? Math.floor((asOfMs - Date.parse(latest.observedOn)) / DAY_MS) : null,
        used_by_receipt: used.has(seriesId),
      };
    }),
  };
}
