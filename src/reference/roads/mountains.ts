import type { Point } from "../geo/distance.ts";
import { alongLine, insideOutline, type Outline } from "./outline.ts";

/**
 * Mountain country: the Rocky Mountain System (Northern, Middle and Southern Rockies) and the dissected northern
 * Colorado Plateaus (the Uinta Basin, the Canyon Lands and the High Plateaus of Utah), after the physiographic divisions
 * of the conterminous US (Fenneman and Johnson, USGS 1946), outlined by Waybill to within about 30 mi
 * (docs/rate-model.md, "Road miles"). There roads cross ranges by passes and follow canyons through cliff lines (US-6
 * by Price Canyon and Soldier Summit), so a road runs well over the 1.2x straight-line circuity of the US network as a
 * whole, and no local road cuts across what the Interstate goes round. Left out: the broad tablelands of the southern
 * plateaus (the Navajo, Grand Canyon and Datil sections, where I-40 and US-89 run straight), the Wyoming Basin (I-80 and
 * US-287 run straight across it), the Snake River Plain, the Basin and Range (highways run straight down the basins:
 * US-93, US-95), and the Pacific ranges, whose cities lie in the valleys and on the coast the roads follow. The
 * Appalachians are left out too: no reference lane tests them.
 *
 * Vertices run clockwise from the Selkirks at the Canadian border, as [lon, lat].
 */
const MOUNTAINS: Outline = [
  [-117.0, 49.0], // Selkirks at the border
  [-113.0, 49.0], // Rocky Mountain Front
  [-112.5, 47.5], // the Front west of Great Falls
  [-111.3, 46.8], // Big Belt Mountains
  [-110.5, 46.0], // Crazy Mountains
  [-109.5, 45.3], // Beartooth front
  [-109.0, 44.5], // Absaroka front at Cody
  [-108.8, 43.5], // Wind River Range
  [-108.7, 42.5],
  [-109.8, 42.2], // round the Wyoming Basin: the Green River basin
  [-110.6, 42.2], // Wyoming Range
  [-110.6, 41.2], // the Uintas' north flank at Evanston
  [-109.0, 40.9], // the Uintas' east end
  [-108.5, 40.4], // Uinta Basin's eastern rim
  [-107.5, 40.8], // Park Range
  [-106.8, 41.0],
  [-106.0, 41.2], // Medicine Bow Mountains
  [-105.3, 41.0], // Laramie Range
  [-105.2, 39.5], // Front Range west of Denver
  [-104.95, 38.8], // Front Range west of Colorado Springs
  [-105.0, 38.0], // Wet Mountains
  [-105.0, 37.0], // Sangre de Cristo front at Raton Pass
  [-105.3, 35.8],
  [-105.5, 35.3], // the Sangre de Cristos' southern end
  [-106.5, 35.9], // Jemez Mountains
  [-107.0, 36.8],
  [-108.0, 37.2], // San Juan Mountains' southern front at Durango
  [-109.0, 37.0], // Four Corners: the Navajo tablelands lie south
  [-110.5, 37.0], // Glen Canyon
  [-112.5, 37.0], // the High Plateaus' southern steps at Kanab
  [-113.3, 37.2], // Hurricane Cliffs
  [-112.8, 38.0], // the High Plateaus' western edge
  [-112.0, 39.0],
  [-111.8, 39.8], // Wasatch Front
  [-111.75, 40.5],
  [-111.8, 41.2],
  [-111.9, 41.8],
  [-111.5, 42.0], // the ranges east of the Bear River
  [-111.5, 43.3], // the Snake River Plain's eastern end
  [-112.5, 44.3], // Centennial Mountains
  [-113.5, 44.0], // Lost River Range
  [-114.5, 43.6], // the Idaho Batholith's southern edge
  [-115.8, 43.7], // Boise Front
  [-116.3, 44.5],
  [-116.2, 45.5], // Seven Devils
  [-116.8, 46.3], // Clearwater Mountains
  [-116.8, 47.5], // Coeur d'Alene Mountains
  [-117.0, 48.0],
];

/** Whether a point lies in mountain country. */
export function inMountains(point: Point): boolean {
  return insideOutline(MOUNTAINS, point);
}

/** Whether most of the straight line between two points (sampled every 10 mi) lies in mountain country. */
export function lineMostlyInMountains(a: Point, b: Point): boolean {
  const samples = alongLine(a, b);
  return samples.filter(inMountains).length * 2 > samples.length;
}
