import type { Point } from "../geo/distance.ts";
import { alongLine, insideOutline, type Outline } from "./outline.ts";

/**
 * Open country: the Interior Plains (Central Lowland and Great Plains), the West Gulf Coastal Plain and the Springfield
 * Plateau (the low, rolling western Ozarks of south-west Missouri, north-east Oklahoma and north-west Arkansas, where
 * MO-13, US-65 and US-71 run straight over the upland), and the Florida peninsula north of Lake Okeechobee, after the
 * physiographic divisions of the conterminous US (Fenneman and Johnson, USGS 1946), outlined by Waybill to within
 * about 30 mi (docs/rate-model.md, "Road miles"). There a grid of US and state highways, laid along section lines and
 * between county seats, runs almost as fast as the Interstates in every direction, so an Interstate route that goes far
 * round over a corridor means the real road is one the network lacks. Outside it (the Rockies and the West, the
 * Appalachian Highlands, the rugged Ozarks (Salem Plateau, White River hills, Boston Mountains)
 * and the Ouachitas, the Interior Low Plateaus south of the Ohio, the Mississippi embayment, the East
 * Gulf and Atlantic coastal plain with its swamps and sounds, the Everglades) a long way round is often the road trucks really take.
 *
 * Vertices run clockwise from the Rocky Mountain Front at the Canadian border, as [lon, lat]; the Great Lakes and the
 * border are left to the land check (us-land.ts), so the outline may run over water and abroad.
 */
const PLAINS: Outline = [
  [-113.0, 49.0], // Rocky Mountain Front at the border
  [-95.2, 49.0], // Lake of the Woods
  [-95.0, 47.0], // Superior Upland's western edge
  [-92.8, 46.0],
  [-90.5, 45.0],
  [-88.0, 45.3],
  [-84.5, 46.0], // Straits of Mackinac
  [-82.5, 45.5], // Lake Huron
  [-82.3, 43.0], // Port Huron
  [-79.0, 43.3], // Niagara
  [-76.0, 44.0], // east end of Lake Ontario
  [-75.8, 43.2], // Erie-Ontario lowland, south of the Adirondacks
  [-77.5, 42.9], // Allegheny Plateau's northern escarpment
  [-79.0, 42.6],
  [-79.8, 42.2],
  [-80.5, 41.9],
  [-81.5, 41.3], // Cleveland, on the plateau's edge
  [-82.0, 40.9],
  [-82.6, 40.2],
  [-82.9, 39.6],
  [-83.5, 39.0],
  [-84.8, 39.0], // the Ohio River: Bluegrass and Pennyroyal lie south of it
  [-85.8, 38.2], // Louisville
  [-86.5, 37.9],
  [-87.6, 37.9], // Evansville
  [-88.2, 37.5],
  [-89.2, 37.0], // Cairo
  [-90.2, 37.9], // the Ozark Plateaus' eastern edge
  [-90.8, 38.4],
  [-92.0, 38.7],
  [-93.3, 38.4], // the Springfield Plateau's northern end, at Truman Lake
  [-92.9, 37.6], // the Eureka Springs escarpment: the rugged Salem Plateau lies east
  [-92.8, 37.2], // east of Springfield
  [-93.3, 36.7], // the White River hills lie south
  [-93.8, 36.35], // Eureka Springs
  [-94.1, 35.95], // Fayetteville, at the Boston Mountains' northern front
  [-94.6, 35.9],
  [-95.2, 36.3], // the Ozarks' western edge, east of Tulsa
  [-95.5, 35.3], // Arkansas River valley
  [-96.0, 34.6], // the Ouachitas' western end
  [-95.5, 34.0],
  [-94.5, 33.7], // Red River
  [-93.5, 33.0],
  [-93.5, 31.0], // Sabine River
  [-93.8, 29.7], // Gulf coast at Sabine Pass
  [-97.2, 25.9], // Brownsville
  [-99.6, 27.5], // Rio Grande at Laredo
  [-100.5, 28.7],
  [-101.5, 29.8],
  [-102.0, 29.8], // Pecos River: Trans-Pecos basins and ranges lie west
  [-103.5, 31.0],
  [-104.0, 32.0],
  [-104.5, 33.5], // Pecos valley at Roswell
  [-105.0, 35.0],
  [-105.2, 36.5], // Sangre de Cristo front
  [-104.9, 38.0],
  [-105.2, 39.5], // Front Range at Denver
  [-105.3, 41.0],
  [-106.0, 42.5], // Laramie Mountains
  [-106.5, 43.0],
  [-107.0, 44.5], // Bighorn Mountains
  [-109.5, 45.6], // Beartooth front
  [-111.0, 46.5],
  [-112.5, 47.5], // Rocky Mountain Front west of Great Falls
];

/**
 * The Florida peninsula north of Lake Okeechobee (the Floridian section of the Coastal Plain, its northern part): a low
 * sandy plain of ridges and lakes crossed every way by four-lane US highways (US-301, US-27, US-441, US-19) and Florida's
 * Turnpike, with no sound or swamp belt across the way. South of 27.3 degrees the Everglades, the Big Cypress and the lake
 * itself leave only the roads there are (Tampa-Miami by Alligator Alley is the real road). The coastal plain of Georgia and
 * the Carolinas is left out: trucks there keep to the Interstates' long way (Jacksonville-Atlanta by I-16 and Macon).
 */
const FLORIDA_PENINSULA: Outline = [
  [-83.5, 30.6], // the Georgia line at the Suwannee
  [-81.45, 30.7], // the mouth of the St. Marys
  [-80.2, 27.3], // the Atlantic coast at Stuart
  [-82.7, 27.3], // the Gulf coast at Sarasota
  [-83.0, 28.5],
  [-83.5, 29.5], // the Big Bend coast
];

/** Whether a point lies in open country. */
export function inOpenCountry(point: Point): boolean {
  return insideOutline(PLAINS, point) || insideOutline(FLORIDA_PENINSULA, point);
}

/** Whether the straight line between two points lies in open country all the way (sampled every 10 mi). */
export function lineInOpenCountry(a: Point, b: Point): boolean {
  return alongLine(a, b).every(inOpenCountry);
}
