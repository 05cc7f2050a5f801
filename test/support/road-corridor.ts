/** One hand-drawn road Chicago - St. Louis - Oklahoma City - Dallas: an operator's own road network as GeoJSON. */
export const CORRIDOR_ROADS = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      properties: { name: "test corridor" },
      geometry: {
        type: "LineString",
        coordinates: [
          [-87.65, 41.85],
          [-90.2, 38.63],
          [-97.52, 35.47],
          [-96.8, 32.78],
        ],
      },
    },
  ],
};
