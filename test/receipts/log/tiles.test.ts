import { describe, expect, test } from "bun:test";
import { parseTileIndexPath, tileIndexPath } from "../../../src/receipts/log/tiles.ts";

describe("C2SP tile paths", () => {
  test("index N is written as zero-padded groups of three, all but the last with an x", () => {
    expect(tileIndexPath(0)).toBe("000");
    expect(tileIndexPath(7)).toBe("007");
    expect(tileIndexPath(1000)).toBe("x001/000");
    expect(tileIndexPath(1234067)).toBe("x001/x234/067");
  });

  test("parsing reads back every index, with a partial width when .p/W follows", () => {
    for (const index of [0, 5, 999, 1000, 1234067, 2 ** 40]) {
      expect(parseTileIndexPath(tileIndexPath(index).split("/"))).toEqual({ index, width: null });
      expect(parseTileIndexPath(`${tileIndexPath(index)}.p/17`.split("/"))).toEqual({ index, width: 17 });
    }
  });

  test("malformed paths are refused: missing x, short groups, widths outside 1–255", () => {
    for (const path of [
      "1",
      "01",
      "001/000",
      "x001",
      "x1/000",
      "000.p/0",
      "000.p/256",
      "000.p/01",
      "000.p",
      "abc",
      "",
    ]) {
      expect(parseTileIndexPath(path.split("/"))).toBeNull();
    }
  });
});
