import { describe, expect, test } from "bun:test";
import { inMountains, lineMostlyInMountains } from "../../../src/reference/roads/mountains.ts";

const at = (lon: number, lat: number) => ({ lon, lat });

describe("mountain country", () => {
  test("is the Rockies and the dissected northern Colorado Plateaus", () => {
    for (const mountains of [
      at(-112.53, 46.0) /* Butte */,
      at(-112.04, 46.59) /* Helena */,
      at(-108.55, 39.06) /* Grand Junction */,
      at(-106.8, 39.6) /* Vail */,
    ]) {
      expect(inMountains(mountains)).toBe(true);
    }
  });

  test("leaves out the plains at the mountain front, the basins and the southern tablelands", () => {
    for (const other of [
      at(-104.99, 39.74) /* Denver */,
      at(-111.89, 40.76) /* Salt Lake City, on the basin floor at the Wasatch Front */,
      at(-111.65, 35.2) /* Flagstaff, on the Coconino tableland */,
      at(-115.14, 36.17) /* Las Vegas */,
      at(-107.5, 42.0) /* the Wyoming Basin */,
      at(-83.92, 35.96) /* Knoxville: the Appalachians are not outlined */,
    ]) {
      expect(inMountains(other)).toBe(false);
    }
  });

  test("a line counts as mountain country when most of it is", () => {
    expect(lineMostlyInMountains(at(-108.55, 39.06), at(-111.89, 40.76))).toBe(true); // Grand Junction-Salt Lake City
    expect(lineMostlyInMountains(at(-111.65, 35.2), at(-115.14, 36.17))).toBe(false); // Flagstaff-Las Vegas
    expect(lineMostlyInMountains(at(-104.99, 39.74), at(-97.34, 37.69))).toBe(false); // Denver-Wichita
  });
});
