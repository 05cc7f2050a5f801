/** What the lane form and the answer call things, in words rather than enum names. */
export const EQUIPMENT_LABELS: Record<string, string> = {
  DRY_VAN: "Dry van",
  REEFER: "Refrigerated (reefer)",
  FLATBED: "Flatbed",
};

export const MODE_LABELS: Record<string, string> = {
  FTL: "Full truckload",
  LTL: "Less than truckload",
  INTERMODAL: "Intermodal (rail and truck)",
};

export const CONFIDENCE_LABELS: Record<string, string> = {
  AMS_ANCHORED: "High: agrees with the USDA market range",
  HIGH: "High",
  MEDIUM: "Medium",
  LOW: "Low",
};

const PART_LABELS: Record<string, string> = {
  fuel: "Fuel",
  reefer_fuel: "Reefer unit fuel",
  labor: "Driver",
  driver: "Driver",
  equipment: "Equipment",
  margin: "Margin",
  per_load: "Stops and empty miles",
  stops: "Stops",
  empty_miles: "Empty miles",
  lane_balance: "Head haul",
  fuel_surcharge: "Fuel surcharge",
};

/** A breakdown line's name in words: the known ones named, any other one from its field name. */
export function partLabel(field: string): string {
  const known = PART_LABELS[field];
  if (known) return known;
  const words = field.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A USDA AMS shipping district's name as a reader writes it: "SANTA MARIA CALIFORNIA" reads "Santa Maria California". */
export function districtLabel(usdaName: string): string {
  return usdaName
    .split(" ")
    .map((word, index) => {
      const letters = word.replace(/[^A-Z]/g, "");
      if (letters.length === 2) return word; // a state code: CA, AZ
      const lower = word.toLowerCase();
      if (index > 0 && ["and", "through"].includes(lower)) return lower;
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(" ");
}

/** A freight market's name in words: PACIFIC_NORTHWEST reads "Pacific Northwest". */
export const marketLabel = (market: string): string =>
  market
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
