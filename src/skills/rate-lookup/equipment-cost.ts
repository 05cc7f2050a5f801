import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { atriEditionAsOf, type AtriEdition } from "./constants.ts";

/**
 * BLS PPI by industry, heavy duty truck manufacturing (FRED PCU336120336120): carries ATRI's equipment cost forward
 * between editions. Equipment cost follows what trucks cost; the truck-freight PPI (WPU301) it replaced prices the
 * trucking service, which fell in 2023 while equipment costs rose (docs/rate-model.md, "Point in time").
 */
export const EQUIPMENT_COST_INDEX = "PCU336120336120";

export interface EquipmentCost {
  perMile: number;
  edition: AtriEdition;
  /** How the edition's figure was carried to the view's date, when the index was there to do it. */
  carriedForward?: { base: number; latest: Observation; ratio: number };
  /** Sentence for the answer's data sources. */
  description: string;
}

/**
 * ATRI's equipment cost per mile as of the view: the newest edition published by then (by its publication
 * date, not its data year), scaled by the heavy-truck PPI from the edition's data year to the newest
 * month published by then (docs/rate-model.md, "Point in time").
 */
export function equipmentCostAsOf(view: ReferenceView): EquipmentCost | undefined {
  const edition = atriEditionAsOf(view.asOf);
  if (!edition) return undefined;
  const baseMonths = view
    .history(EQUIPMENT_COST_INDEX, `${edition.dataYear}-01-01`)
    .filter((o) => o.observedOn <= `${edition.dataYear}-12-31`);
  const latest = view.latest(EQUIPMENT_COST_INDEX);
  const label = `ATRI Operational Costs of Trucking ${edition.edition} edition (${edition.dataYear} data, published ${edition.publishedOn}): $${edition.equipmentPerMile}/mile`;
  if (baseMonths.length === 0 || !latest || latest.observedOn <= `${edition.dataYear}-12-31`) {
    return {
      perMile: edition.equipmentPerMile,
      edition,
      description: `${label}, not carried forward (no newer ${EQUIPMENT_COST_INDEX} month)`,
    };
  }
  const base = baseMonths.reduce((sum, o) => sum + o.value, 0) / baseMonths.length;
  const ratio = latest.value / base;
  return {
    perMile: edition.equipmentPerMile * ratio,
    edition,
    carriedForward: { base, latest, ratio },
    description:
      `${label}, carried forward x${ratio.toFixed(4)} by the BLS heavy-truck manufacturing PPI (${EQUIPMENT_COST_INDEX} ${latest.observedOn.slice(0, 7)} ` +
      `${latest.value} over the ${edition.dataYear} average ${base.toFixed(2)}) = $${(edition.equipmentPerMile * ratio).toFixed(3)}/mile`,
  };
}
