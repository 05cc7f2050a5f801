import { distance as editDistance } from "fastest-levenshtein";
import zipcodes from "zipcodes";
import { readUsCities, type GazetteerPlace } from "./gazetteer.ts";
import { isStateCode, stateByName, stateInfo, PADD_LABEL, type StateCode } from "./regions.ts";

/** How a text became a place; the rate's confidence depends on it. */
export type ResolutionQuality =
  | "zip" // a 5-digit ZIP code
  | "exact" // city and state matched (after spelling normalization)
  | "city_only" // no state given: the most populous US place of that name
  | "fuzzy"; // a close misspelling

export interface ResolvedPlace {
  city: string;
  state: StateCode;
  lat: number;
  lon: number;
  padd: string;
  quality: ResolutionQuality;
  /** Edit distance for fuzzy matches, else 0. */
  editDistance: number;
}

export type PlaceResolution = { ok: true; place: ResolvedPlace } | { ok: false; suggestions: string[] };

const ABBREVIATIONS: Record<string, string> = { st: "saint", ste: "sainte", ft: "fort", mt: "mount" };

/** Lower case, no accents or punctuation, single spaces, and St/Ft/Mt spelled out. */
export function normalizePlaceName(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’.]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(" ");
}

interface Entry {
  key: string; // normalized name
  place: GazetteerPlace;
}

class Gazetteer {
  private readonly byNameAndState = new Map<string, GazetteerPlace>();
  private readonly byName = new Map<string, GazetteerPlace>();
  private readonly entriesByState = new Map<StateCode, Entry[]>();
  private readonly allEntries: Entry[] = [];

  constructor(places: GazetteerPlace[]) {
    const byPopulation = [...places].sort((a, b) => b.population - a.population);
    for (const place of byPopulation) this.add(normalizePlaceName(place.city), place);
    // GeoNames calls some places "<Name> City" (New York City) or "<Name>, <suffix>" (Washington, D.C.);
    // let "<Name>" find them unless a place of that exact name is taken.
    for (const place of byPopulation) {
      const key = normalizePlaceName(place.city);
      if (key.endsWith(" city")) this.add(key.slice(0, -5), place);
      if (place.city.includes(",")) this.add(normalizePlaceName(place.city.split(",")[0]!), place);
    }
  }

  private add(key: string, place: GazetteerPlace): void {
    const stateKey = `${key}|${place.state}`;
    if (this.byNameAndState.has(stateKey)) return;
    this.byNameAndState.set(stateKey, place);
    if (!this.byName.has(key)) this.byName.set(key, place);
    const entry = { key, place };
    this.allEntries.push(entry);
    let list = this.entriesByState.get(place.state);
    if (!list) {
      list = [];
      this.entriesByState.set(place.state, list);
    }
    list.push(entry);
  }

  exact(name: string, state: StateCode | undefined): GazetteerPlace | undefined {
    return state ? this.byNameAndState.get(`${name}|${state}`) : this.byName.get(name);
  }

  /** Places ordered by edit distance, then population (entries are already in population order). */
  nearest(name: string, state: StateCode | undefined, limit: number): { place: GazetteerPlace; distance: number }[] {
    const pool = state ? (this.entriesByState.get(state) ?? []) : this.allEntries;
    const scored: { place: GazetteerPlace; distance: number; order: number }[] = [];
    pool.forEach((entry, order) => {
      if (Math.abs(entry.key.length - name.length) > 3) return;
      scored.push({ place: entry.place, distance: editDistance(entry.key, name), order });
    });
    scored.sort((a, b) => a.distance - b.distance || a.order - b.order);
    return scored.slice(0, limit);
  }

  /** The same city name in other states, most populous first. */
  elsewhere(name: string, limit: number): GazetteerPlace[] {
    return this.allEntries.filter((entry) => entry.key === name).slice(0, limit).map((entry) => entry.place);
  }
}

let gazetteer: Gazetteer | undefined;

/** Builds the index once (about 17k US places); call at start to keep the first request fast. */
export function warmGazetteer(): void {
  gazetteer ??= new Gazetteer(readUsCities());
}

function index(): Gazetteer {
  warmGazetteer();
  return gazetteer!;
}

/** Misspellings tolerated: none for very short names, one edit up to 8 letters, two beyond. */
const allowedEdits = (name: string): number => (name.length <= 4 ? 0 : name.length <= 8 ? 1 : 2);

const label = (place: { city: string; state: string }): string => `${place.city}, ${place.state}`;

function toResolved(place: GazetteerPlace, quality: ResolutionQuality, distance = 0): ResolvedPlace {
  return {
    city: place.city,
    state: place.state,
    lat: place.lat,
    lon: place.lon,
    padd: PADD_LABEL[stateInfo(place.state).dieselArea],
    quality,
    editDistance: distance,
  };
}

function parseState(text: string): StateCode | undefined {
  const upper = text.trim().toUpperCase().replace(/\./g, "");
  if (isStateCode(upper)) return upper;
  return stateByName(normalizePlaceName(text));
}

/** Splits "City, ST", "City ST", "City, State Name" or "City State Name" into city and state. */
export function splitCityState(text: string): { city: string; state?: StateCode } {
  const comma = text.lastIndexOf(",");
  if (comma >= 0) {
    const state = parseState(text.slice(comma + 1));
    if (state) return { city: normalizePlaceName(text.slice(0, comma)), state };
  }
  const words = normalizePlaceName(text).split(" ");
  for (let take = Math.min(3, words.length - 1); take >= 1; take--) {
    const tail = words.slice(-take).join(" ");
    const state = take === 1 && tail.length === 2 ? parseState(tail) : stateByName(tail);
    if (state) return { city: words.slice(0, -take).join(" "), state };
  }
  return { city: words.join(" ") };
}

function resolveZip(zip: string): PlaceResolution {
  const record = zipcodes.lookup(zip.slice(0, 5));
  if (!record || !isStateCode(record.state)) return { ok: false, suggestions: [] };
  return {
    ok: true,
    place: {
      city: record.city,
      state: record.state,
      lat: record.latitude,
      lon: record.longitude,
      padd: PADD_LABEL[stateInfo(record.state).dieselArea],
      quality: "zip",
      editDistance: 0,
    },
  };
}

/** "City, ST" free text (forgiving) or a 5-digit ZIP, to one US place; the most populous wins ties. */
export function resolvePlace(text: string): PlaceResolution {
  const trimmed = text.trim();
  if (/^\d{5}(-\d{4})?$/.test(trimmed)) return resolveZip(trimmed);
  const { city, state } = splitCityState(trimmed);
  if (!city) return { ok: false, suggestions: [] };
  const places = index();
  const exact = places.exact(city, state);
  if (exact) return { ok: true, place: toResolved(exact, state ? "exact" : "city_only") };

  const nearest = places.nearest(city, state, 5);
  const best = nearest[0];
  if (best && best.distance <= allowedEdits(city)) return { ok: true, place: toResolved(best.place, "fuzzy", best.distance) };

  const suggestions = [...places.elsewhere(city, 3), ...nearest.map((n) => n.place)].map(label);
  return { ok: false, suggestions: [...new Set(suggestions)].slice(0, 5) };
}
