import { greatCircleMiles, type Point } from "./distance.ts";

/**
 * Where USDA AMS's FVWTRK shipping districts and destination cities lie (docs/rate-model.md, "Market anchoring").
 * A district is one or more circles around the towns its report block names; an origin inside any circle
 * ships from that district. Radii follow each district's extent (a valley, a border crossing, a state).
 * Coordinates are the named towns' (GeoNames).
 */
interface Area extends Point {
  radiusMiles: number;
}

export const AMS_DISTRICTS: Record<string, Area[]> = {
  "YAKIMA VALLEY AND WENATCHEE DISTRICT WASHINGTON": [
    { lat: 46.6021, lon: -120.5059, radiusMiles: 45 }, // Yakima
    { lat: 47.4235, lon: -120.3103, radiusMiles: 35 }, // Wenatchee
  ],
  "SOUTH AND CENTRAL DISTRICT CALIFORNIA": [
    { lat: 36.7477, lon: -119.7724, radiusMiles: 75 }, // Fresno, the San Joaquin Valley from Merced to Tulare
  ],
  "KERN DISTRICT CALIFORNIA": [{ lat: 35.3733, lon: -119.0187, radiusMiles: 40 }], // Bakersfield
  "SALINAS-WATSONVILLE CALIFORNIA": [
    { lat: 36.6777, lon: -121.6555, radiusMiles: 25 }, // Salinas
    { lat: 36.9102, lon: -121.7569, radiusMiles: 15 }, // Watsonville
  ],
  "SANTA MARIA CALIFORNIA": [{ lat: 34.953, lon: -120.4357, radiusMiles: 25 }],
  "OXNARD DISTRICT CALIFORNIA": [{ lat: 34.1975, lon: -119.1771, radiusMiles: 25 }],
  "IMPERIAL, COACHELLA VALLEYS CA, CENTRAL AND WESTERN AZ, MEXICO CROSSINGS THROUGH CALEXICO AND SAN LUIS": [
    { lat: 32.792, lon: -115.5631, radiusMiles: 35 }, // El Centro, Imperial Valley, Calexico
    { lat: 33.7206, lon: -116.2156, radiusMiles: 30 }, // Indio, Coachella Valley
    { lat: 32.6927, lon: -114.6277, radiusMiles: 35 }, // Yuma, San Luis
    { lat: 33.4484, lon: -112.074, radiusMiles: 60 }, // Phoenix, central Arizona
  ],
  "MEXICO CROSSINGS THROUGH NOGALES ARIZONA": [{ lat: 31.3404, lon: -110.9343, radiusMiles: 30 }],
  "MEXICO CROSSINGS THROUGH SOUTH TEXAS": [
    { lat: 26.2034, lon: -98.23, radiusMiles: 60 }, // McAllen / Pharr, the Rio Grande Valley
    { lat: 27.5064, lon: -99.5075, radiusMiles: 30 }, // Laredo
  ],
  "VIDALIA DISTRICT GEORGIA": [{ lat: 32.2177, lon: -82.4135, radiusMiles: 35 }],
  GEORGIA: [{ lat: 31.4505, lon: -83.5085, radiusMiles: 90 }], // south Georgia produce belt around Tifton
  "SAN LUIS VALLEY COLORADO": [{ lat: 37.4695, lon: -105.87, radiusMiles: 40 }], // Alamosa
};

/** The ten destination cities the report prices, by the name it prints. */
export const AMS_DESTINATIONS: Record<string, Point> = {
  Atlanta: { lat: 33.749, lon: -84.388 },
  Baltimore: { lat: 39.2904, lon: -76.6122 },
  Boston: { lat: 42.3584, lon: -71.0598 },
  Chicago: { lat: 41.85, lon: -87.65 },
  Dallas: { lat: 32.7831, lon: -96.8067 },
  "Los Angeles": { lat: 34.0522, lon: -118.2437 },
  Miami: { lat: 25.7743, lon: -80.1937 },
  "New York": { lat: 40.7143, lon: -74.006 },
  Philadelphia: { lat: 39.9523, lon: -75.1638 },
  Seattle: { lat: 47.6062, lon: -122.3321 },
};

/** A destination counts as the report's city within this distance of its centre (the metro's terminal markets). */
export const AMS_DESTINATION_RADIUS_MILES = 40;

/** The districts an origin ships from, nearest named town first. */
export function amsDistrictsOf(origin: Point): string[] {
  return Object.entries(AMS_DISTRICTS)
    .map(([district, areas]) => ({
      district,
      distance: Math.min(
        ...areas.map((area) =>
          greatCircleMiles(origin, area) <= area.radiusMiles ? greatCircleMiles(origin, area) : Infinity,
        ),
      ),
    }))
    .filter((d) => Number.isFinite(d.distance))
    .sort((a, b) => a.distance - b.distance)
    .map((d) => d.district);
}

/** The report's destination city a place belongs to, if any. */
export function amsDestinationOf(destination: Point): string | undefined {
  return Object.entries(AMS_DESTINATIONS).find(
    ([, city]) => greatCircleMiles(destination, city) <= AMS_DESTINATION_RADIUS_MILES,
  )?.[0];
}
