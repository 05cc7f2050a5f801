import { dieselPrice, dieselPriceForState, type DieselReading } from "../../reference/readings/diesel.ts";
import type { ResolvedPlace } from "../../reference/geo/places.ts";
import { placeOrRefuse } from "../rate-lookup/index.ts";
import { DIESEL_REGIONS, type DieselRegion } from "../../reference/geo/regions.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import { beforeData } from "../kit.ts";

export interface SurchargeDiesel {
  reading: DieselReading;
  /** The resolved origin, when the area came from a place rather than a region name. */
  origin?: ResolvedPlace;
}

/** The diesel price behind a surcharge: the origin's EIA area, or the named region, as of the view. */
export function surchargeDiesel(
  view: ReferenceView,
  where: { origin?: string; region?: DieselRegion },
): SurchargeDiesel {
  let origin: ResolvedPlace | undefined;
  let reading: DieselReading | undefined;
  if (where.origin !== undefined) {
    origin = placeOrRefuse("origin", where.origin);
    reading = dieselPriceForState(view, origin.state);
  } else {
    reading = dieselPrice(view, DIESEL_REGIONS[where.region ?? "NATIONAL"]);
  }
  if (!reading) throw beforeData("diesel price", view.asOf);
  return { reading, origin };
}
