import { readUsCities } from "./gazetteer.ts";
import { normalizePlaceName } from "./places.ts";

interface Named {
  key: string;
  label: string;
  population: number;
}

let named: Named[] | undefined;

/** The gazetteer's places as "City, ST", largest first, each with its name as the resolver compares it. */
function places(): Named[] {
  named ??= readUsCities()
    .map((place) => ({
      key: normalizePlaceName(place.city),
      label: `${place.city}, ${place.state}`,
      population: place.population,
    }))
    .sort((a, b) => b.population - a.population);
  return named;
}

/** Up to `limit` "City, ST" whose name starts with what was typed (a state after a comma narrows them), largest first. */
export function placeSuggestions(typed: string, limit = 8): string[] {
  const [cityPart = "", statePart = ""] = typed.split(",");
  const city = normalizePlaceName(cityPart);
  const state = statePart.trim().toUpperCase();
  if (city.length < 2) return [];
  const found: string[] = [];
  for (const place of places()) {
    if (!place.key.startsWith(city)) continue;
    if (state && !place.label.endsWith(`, ${state}`)) continue;
    if (!found.includes(place.label)) found.push(place.label);
    if (found.length === limit) break;
  }
  return found;
}
