import { describe, expect, test } from "bun:test";
import { reachableOrigin, rememberedLinkOrigin, rememberLinkOrigin } from "../../src/dashboard/link-origin.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";

describe("where printed links point", () => {
  test("a wildcard listening address becomes one a browser can open; IPv6 literals get brackets", () => {
    expect(reachableOrigin("127.0.0.1", 9123)).toBe("http://127.0.0.1:9123");
    expect(reachableOrigin("0.0.0.0", 9123)).toBe("http://127.0.0.1:9123");
    expect(reachableOrigin("::", 9123)).toBe("http://[::1]:9123");
    expect(reachableOrigin("::1", 9123)).toBe("http://[::1]:9123");
    expect(reachableOrigin("rates.internal", 80)).toBe("http://rates.internal:80");
  });

  test("the origin serve records is what a later command reads from the same database", async () => {
    const db = openMemoryDatabase();
    expect(await rememberedLinkOrigin(db)).toBeUndefined();
    await rememberLinkOrigin(db, "http://127.0.0.1:9123");
    await rememberLinkOrigin(db, "https://rates.example.com");
    expect(await rememberedLinkOrigin(db)).toBe("https://rates.example.com");
  });
});
