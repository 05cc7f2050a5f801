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

export type PlaceResolution =
  | { ok: true; place: ResolvedPlace }
  | {
      ok: false;
      reason: "unresolved";
      suggestions: string[] /** Why, when more can be said than "not found". */;
      why?: string;
    }
  | { ok: false; reason: "ambiguous"; candidates: string[] }
  | { ok: false; reason: "not_road_connected"; message: string };

const unresolved = (suggestions: string[], why?: string): PlaceResolution => ({
  ok: false,
  reason: "unresolved",
  suggestions,
  ...(why && { why }),
});

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
      const [beforeComma, afterComma] = place.city.split(",");
      if (beforeComma !== undefined && afterComma !== undefined) this.add(normalizePlaceName(beforeComma), place);
    }
  }

  private add(key: string, place: GazetteerPlace): void {
    const stateKey = `${key}|${place.state}`;
    if (this.byNameAndState.has(stateKey)) return;
    this.byNameAndState.set(stateKey, place);
    const known = this.byName.get(key);
    if (!known || known.population < place.population) this.byName.set(key, place);
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

  /** Every place of exactly this name, most populous first. */
  named(name: string): GazetteerPlace[] {
    return this.allEntries
      .filter((entry) => entry.key === name)
      .map((entry) => entry.place)
      .sort((a, b) => b.population - a.population);
  }

  /** The same city name in other states, most populous first. */
  elsewhere(name: string, limit: number): GazetteerPlace[] {
    return this.allEntries
      .filter((entry) => entry.key === name)
      .slice(0, limit)
      .map((entry) => entry.place);
  }
}

let gazetteer: Gazetteer | undefined;

/** Builds the index once (about 17k US places); call at start to keep the first request fast. */
export function warmGazetteer(): void {
  index();
}

function index(): Gazetteer {
  gazetteer ??= new Gazetteer(readUsCities());
  return gazetteer;
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
  const offRoad = record && offRoadArea(record.state);
  if (offRoad) return { ok: false, reason: "not_road_connected", message: offRoad };
  if (!record || !isStateCode(record.state)) return unresolved([]);
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

/**
 * Places no truck can reach over the road network: islands and territories, and Alaska, whose only road
 * link runs through Canada, which the network does not hold (docs/rate-model.md, "Places").
 */
const OFF_ROAD_AREAS: Record<string, string> = {
  HI: "Hawaii has no road link to the mainland",
  AK: "Alaska is reached by road only through Canada, which the road network does not cover",
  PR: "Puerto Rico has no road link to the mainland",
  VI: "the U.S. Virgin Islands have no road link to the mainland",
  GU: "Guam has no road link to the mainland",
  AS: "American Samoa has no road link to the mainland",
  MP: "the Northern Mariana Islands have no road link to the mainland",
};
const TERRITORY_NAMES: Record<string, string> = {
  "puerto rico": "PR",
  "virgin islands": "VI",
  "us virgin islands": "VI",
  guam: "GU",
  "american samoa": "AS",
  "northern mariana islands": "MP",
};

function offRoadArea(code: string | undefined): string | undefined {
  return code ? OFF_ROAD_AREAS[code.toUpperCase()] : undefined;
}

/** The territory or off-road state a text names after its last comma (or as a whole), if any. */
function offRoadIn(text: string): string | undefined {
  const tail = text.slice(text.lastIndexOf(",") + 1).trim();
  const name = normalizePlaceName(tail);
  const code =
    TERRITORY_NAMES[name] ??
    (tail.replace(/\./g, "").length === 2 ? tail.replace(/\./g, "").toUpperCase() : stateByName(name));
  return offRoadArea(code);
}

/** Common shorthand for big metros. */
const ALIASES: Record<string, string> = {
  nyc: "New York, NY",
  "new york city": "New York, NY",
  la: "Los Angeles, CA",
  philly: "Philadelphia, PA",
  dc: "Washington, DC",
  sf: "San Francisco, CA",
};

/** A trailing country ("City, ST, USA") says nothing more. */
const withoutCountry = (text: string): string =>
  text.replace(/,\s*(u\.?s\.?(a\.?)?|united states( of america)?)\s*$/i, "").trim();

/**
 * A bare name is ambiguous when another place of that name is at least this share of the largest one's
 * population and a city in its own right (Portland OR and ME, Kansas City MO and KS); otherwise the largest wins.
 */
const AMBIGUOUS_SHARE = 0.1;
const AMBIGUOUS_MIN_POPULATION = 50_000;

/** "City, ST" free text (forgiving) or a ZIP / ZIP+4 code, to one US place a truck can drive to. */
export function resolvePlace(text: string): PlaceResolution {
  const trimmed = withoutCountry(text.trim());
  if (/^\d{5}(-\d{4})?$/.test(trimmed)) return resolveZip(trimmed);
  return resolveCityState(ALIASES[normalizePlaceName(trimmed)] ?? trimmed);
}

function resolveCityState(trimmed: string): PlaceResolution {
  const offRoadTail =
    trimmed.includes(",") || TERRITORY_NAMES[normalizePlaceName(trimmed)] ? offRoadIn(trimmed) : undefined;
  if (offRoadTail) return { ok: false, reason: "not_road_connected", message: offRoadTail };
  const unknownState = unknownStateIn(trimmed);
  if (unknownState) return unresolvedSuggesting(normalizePlaceName(unknownState.city), undefined, unknownState.why);
  const { city, state } = splitCityState(trimmed);
  if (!city) return unresolved([]);
  const places = index();
  const exact = places.exact(city, state);
  if (exact && !state) {
    const rivals = places
      .named(city)
      .filter(
        (p) => p !== exact && p.population >= Math.max(AMBIGUOUS_MIN_POPULATION, exact.population * AMBIGUOUS_SHARE),
      );
    if (rivals.length > 0)
      return { ok: false, reason: "ambiguous", candidates: [exact, ...rivals].slice(0, 5).map(label) };
  }
  const found = exact ? toResolved(exact, state ? "exact" : "city_only") : undefined;
  const nearest = found ? [] : places.nearest(city, state, 5);
  const best = nearest[0];
  const place =
    found ?? (best && best.distance <= allowedEdits(city) ? toResolved(best.place, "fuzzy", best.distance) : undefined);
  if (place) {
    const offRoad = offRoadArea(place.state);
    return offRoad ? { ok: false, reason: "not_road_connected", message: offRoad } : { ok: true, place };
  }
  return unresolvedSuggesting(city, state);
}

/**
 * A suggestion must be close enough to be what the caller meant: the same name in another state, or
 * one edit more than a fuzzy match accepts (never a place that merely shares a few letters).
 */
const closeEnough = (name: string, distance: number) => distance <= allowedEdits(name) + 1;

function unresolvedSuggesting(city: string, state: StateCode | undefined, why?: string): PlaceResolution {
  if (!city) return unresolved([], why);
  const places = index();
  const near = places
    .nearest(city, state, 5)
    .filter((n) => closeEnough(city, n.distance))
    .map((n) => n.place);
  const suggestions = [...places.elsewhere(city, 3), ...near].filter((p) => !offRoadArea(p.state)).map(label);
  return unresolved([...new Set(suggestions)].slice(0, 5), why);
}

/**
 * "City, XX" whose XX is meant as a state but is none (a two- or three-letter code, or a word that is
 * not a state's name): the caller is told so, and suggestions come from every state.
 */
function unknownStateIn(text: string): { city: string; why: string } | undefined {
  const comma = text.lastIndexOf(",");
  if (comma < 0) return undefined;
  const tail = text.slice(comma + 1).trim();
  if (!/^[A-Za-z][A-Za-z. ]*$/.test(tail) || parseState(tail)) return undefined;
  const looksLikeCode = tail.replace(/\./g, "").length <= 3;
  return {
    city: text.slice(0, comma),
    why: looksLikeCode ? `'${tail}' is not a US state code` : `'${tail}' is not a US state`,
  };
}
