import { describe, expect, test } from "bun:test";
import { inOpenCountry, lineInOpenCountry } from "../../../src/reference/roads/open-country.ts";

const at = (lon: number, lat: number) => ({ lon, lat });

describe("open country", () => {
  test("is the Interior Plains, the West Gulf Coastal Plain, the Springfield Plateau and the Florida peninsula north of Lake Okeechobee", () => {
    for (const plains of [
      at(-97.34, 37.69) /* Wichita */,
      at(-96.8, 32.78) /* Dallas */,
      at(-83.0, 39.96) /* Columbus */,
      at(-104.8, 41.14) /* Cheyenne */,
      at(-93.3, 37.2) /* Springfield, MO */,
      at(-82.46, 27.95) /* Tampa */,
      at(-81.66, 30.33) /* Jacksonville */,
    ]) {
      expect(inOpenCountry(plains)).toBe(true);
    }
  });

  test("leaves out the mountains, the highlands and the plateaus", () => {
    for (const rough of [
      at(-111.89, 40.76) /* Salt Lake City */,
      at(-83.92, 35.96) /* Knoxville */,
      at(-91.77, 37.95) /* Rolla, MO: the Salem Plateau */,
      at(-79.99, 40.44) /* Pittsburgh */,
      at(-80.19, 25.77) /* Miami, beyond the Everglades */,
      at(-81.1, 32.08) /* Savannah, on the sounds */,
      at(-83.63, 32.84) /* Macon */,
    ]) {
      expect(inOpenCountry(rough)).toBe(false);
    }
  });

  test("a line lies in it only when it does all the way", () => {
    expect(lineInOpenCountry(at(-96.8, 32.78), at(-96.0, 36.15))).toBe(true); // Dallas-Tulsa
    expect(lineInOpenCountry(at(-104.99, 39.74), at(-111.89, 40.76))).toBe(false); // Denver-Salt Lake City over the Rockies
    expect(lineInOpenCountry(at(-82.46, 27.95), at(-80.19, 25.77))).toBe(false); // Tampa-Miami across the Everglades
  });
});
