import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * gzip for bodies that begin with a prefix many of them share (a kept answer's JSON, sent again to
 * every caller with an envelope of its own). The prefix is deflated once, ending on a full flush:
 * its deflate blocks end byte-aligned and nothing after them refers back into them. Each body is
 * then that, its own tail as one stored (uncompressed) final block, and the gzip trailer with the
 * CRC-32 and length of the whole body: one valid gzip member (RFC 1952; blocks per RFC 1951,
 * stored blocks in 3.2.4). The tail is an envelope of random ids, which deflate would not shrink.
 * Per call this is a CRC over the tail and one copy, where gzip of the whole body at level 1 was
 * about 30 µs hot and 50–60 µs at 1,000 answers/s (docs/performance.md, "Compressing an answer").
 */

type GzipLevel = NonNullable<Bun.ZlibCompressionOptions["level"]>;

interface DeflatedPrefix {
  deflated: Uint8Array;
  crc: number;
  byteLength: number;
}

/** ID1 ID2, CM = deflate, no flags, no modification time, no extra flags, OS unknown. */
const GZIP_HEADER = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
/** A stored block says its length in two bytes. */
const STORED_BLOCK_MAX_BYTES = 0xffff;
const STORED_BLOCK_HEADER_BYTES = 5;
const TRAILER_BYTES = 8;

/** The deflated prefix, kept as long as the object it belongs to (an answer kept for reuse keeps it; a one-off answer lets it go). */
const deflatedPrefixes = new WeakMap<object, DeflatedPrefix>();

function deflatedPrefixOf(owner: object, prefix: string, level: GzipLevel): DeflatedPrefix {
  let entry = deflatedPrefixes.get(owner);
  if (!entry) {
    const bytes = new TextEncoder().encode(prefix);
    entry = {
      deflated: deflateRawSync(bytes, { level, finishFlush: constants.Z_FULL_FLUSH }),
      crc: crc32(bytes),
      byteLength: bytes.byteLength,
    };
    deflatedPrefixes.set(owner, entry);
  }
  return entry;
}

/** gzip of `prefix + tail`; `owner` stands for the prefix (the same owner, the same prefix) and keeps its deflated form. */
export function gzipWithSharedPrefix(
  owner: object,
  prefix: string,
  tail: string,
  level: GzipLevel,
): Uint8Array<ArrayBuffer> {
  const tailBytes = new TextEncoder().encode(tail);
  if (tailBytes.byteLength > STORED_BLOCK_MAX_BYTES)
    return Bun.gzipSync(new TextEncoder().encode(prefix + tail), { level });
  const head = deflatedPrefixOf(owner, prefix, level);
  const out = new Uint8Array(
    GZIP_HEADER.byteLength +
      head.deflated.byteLength +
      STORED_BLOCK_HEADER_BYTES +
      tailBytes.byteLength +
      TRAILER_BYTES,
  );
  out.set(GZIP_HEADER, 0);
  out.set(head.deflated, GZIP_HEADER.byteLength);
  let at = GZIP_HEADER.byteLength + head.deflated.byteLength;
  const view = new DataView(out.buffer);
  // BFINAL = 1, BTYPE = 00 (stored); the full flush left the stream byte-aligned, so the header is one byte.
  view.setUint8(at, 1);
  view.setUint16(at + 1, tailBytes.byteLength, true);
  view.setUint16(at + 3, ~tailBytes.byteLength & 0xffff, true);
  at += STORED_BLOCK_HEADER_BYTES;
  out.set(tailBytes, at);
  at += tailBytes.byteLength;
  view.setUint32(at, crc32(tailBytes, head.crc), true);
  view.setUint32(at + 4, (head.byteLength + tailBytes.byteLength) >>> 0, true);
  return out;
}
