import { describe, expect, test } from "bun:test";
import { createServer } from "node:net";
import { postWebhook } from "../../src/webhooks/http-post.ts";
import { isPublicAddress } from "../../src/webhooks/public-address.ts";
import { parseWebhookUrl, type TargetPolicy } from "../../src/webhooks/target-policy.ts";

/** Forms of one IPv4 address an IPv6 literal can carry (docs/alerts-and-webhooks.md, "Delivery safety"). */
function ipv6Forms(ipv4: string): Record<string, string> {
  const [a, b, c, d] = ipv4.split(".").map(Number) as [number, number, number, number];
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  const flipped = (x: number, y: number) => (((x ^ 0xff) << 8) | (y ^ 0xff)).toString(16);
  return {
    "IPv4-compatible": `::${hex(a, b)}:${hex(c, d)}`,
    "IPv4-compatible, dotted": `::${ipv4}`,
    "IPv4-mapped": `::ffff:${hex(a, b)}:${hex(c, d)}`,
    "IPv4-mapped, dotted": `::ffff:${ipv4}`,
    SIIT: `::ffff:0:${hex(a, b)}:${hex(c, d)}`,
    "NAT64 64:ff9b::/96": `64:ff9b::${hex(a, b)}:${hex(c, d)}`,
    "NAT64 64:ff9b::/96, dotted": `64:ff9b::${ipv4}`,
    "6to4": `2002:${hex(a, b)}:${hex(c, d)}::1`,
    "Teredo client": `2001:0:5ef5:79fd:0:ffff:${flipped(a, b)}:${flipped(c, d)}`,
    "Teredo server": `2001:0:${hex(a, b)}:${hex(c, d)}:0:ffff:a0be:e4f1`,
  };
}

describe("an IPv6 address is judged by the IPv4 address it carries", () => {
  const nonPublic = ["127.0.0.1", "169.254.169.254", "10.0.0.1", "192.168.1.1", "100.64.0.1", "0.0.0.0", "224.0.0.1"];
  for (const ipv4 of nonPublic) {
    test.each(Object.entries(ipv6Forms(ipv4)))(`${ipv4} as %s (%s) is not public`, (_form, address) => {
      expect(isPublicAddress(address)).toBe(false);
      expect(() => parseWebhookUrl(`https://[${address}]/hook`, false)).toThrow("must point at a public address");
    });
  }

  test.each(Object.entries(ipv6Forms("93.184.215.14")))("93.184.215.14 as %s (%s) is public", (_form, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test("the literals the attack used are refused", () => {
    for (const address of ["::7f00:1", "::a9fe:a9fe", "::a00:1"]) expect(isPublicAddress(address)).toBe(false);
  });

  test("local-use NAT64 (64:ff9b:1::/48) is never public: where it carries the IPv4 address is the operator's choice", () => {
    // 93.184.215.14 as the operator's /96 prefix would carry it, and as a /48 prefix would (around the u octet).
    for (const address of ["64:ff9b:1::5db8:d70e", "64:ff9b:1:5db8:d7:e00::", "64:ff9b:1::7f00:1"]) {
      expect(isPublicAddress(address)).toBe(false);
    }
  });

  test("plain IPv6 keeps its own range", () => {
    expect(isPublicAddress("2606:4700:4700::1111")).toBe(true);
    for (const address of ["::", "::1", "fe80::1", "fd00::1", "fec0::1", "ff02::1", "2001:db8::1", "100::1"]) {
      expect(isPublicAddress(address)).toBe(false);
    }
    expect(isPublicAddress("not an address")).toBe(false);
  });
});

test("a delivery to [::7f00:1] is refused before any connection is made", async () => {
  let connections = 0;
  const listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as { port: number };
  const policy: TargetPolicy = { allowPrivate: false, resolve: async () => [] };
  try {
    for (const host of ["[::7f00:1]", "[::ffff:7f00:1]", "[64:ff9b::7f00:1]"]) {
      const outcome = await postWebhook(new URL(`https://${host}:${port}/hook`), {}, "{}", policy);
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining("not a public") });
    }
    expect(connections).toBe(0);
  } finally {
    listener.close();
  }
});
