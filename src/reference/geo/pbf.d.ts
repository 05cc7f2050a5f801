// Ambient types for untyped inputs: the gazetteer's two, and the embedded road network file.
declare module "pbf" {
  export default class Pbf {
    constructor(buffer: Uint8Array);
    pos: number;
    length: number;
    readMessage<T>(read: (tag: number, result: T, pbf: Pbf) => void, result: T): T;
    readString(): string;
    readVarint(): number;
    readSVarint(): number;
  }
}

declare module "*.pbf" {
  const path: string;
  export default path;
}

/** A Waybill road-network file (JSON text, format waybill.roads/1) imported with `type: "file"`: its path. */
declare module "*.roads" {
  const path: string;
  export default path;
}

declare module "zipcodes" {
  interface ZipRecord {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string): ZipRecord | undefined;
  const zipcodes: { lookup: typeof lookup };
  export default zipcodes;
}
