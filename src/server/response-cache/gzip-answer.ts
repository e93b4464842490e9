/**
 * A response-cache hit in gzip, its stored part compressed once.
 *
 * A hit is the stored data plus a tail of its own (`extensions.cost`: the
 * key's budget now), so no whole answer can be compressed ahead. Compressing
 * each hit whole would cost many times what the rest of the hit costs
 * (docs/decisions/gzip-hits-joined.md).
 *
 * A DEFLATE stream is a series of blocks, and a block may refer back only to
 * bytes already decoded. So the stored part is compressed once, ending with a
 * sync flush (blocks, no last one, the stream byte-aligned and still open),
 * and each hit appends its tail as the last block, stored as it is (a few
 * hundred bytes: starting a compressor for them, with its 256 KB of state,
 * would cost more than sending them), then the gzip trailer: the CRC-32 of
 * the whole, carried on from the stored part's over the tail, and the
 * length. Brotli streams cannot be joined this way, so a hit goes out in
 * gzip whenever the client accepts it.
 */
import type { IncomingMessage } from 'node:http';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import Negotiator from 'negotiator';

/** Magic, DEFLATE, no flags, no time, no extra flags, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** Speed first, for JSON made on every request (compressed-responses.ts uses it too). */
export const GZIP_LEVEL = 4;

export interface CompressedPart {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly length: number;
}

/** Each stored answer's part, compressed once while the entry lives in this process. */
const compressed = new WeakMap<object, CompressedPart>();

/** The gzip part made for `owner` so far, if any. */
export function compressedPart(owner: object): CompressedPart | undefined {
  return compressed.get(owner);
}

/** The gzip part of `parts`, compressed on the first call for `owner` and kept with it. */
function compressedOnce(owner: object, parts: readonly Buffer[]): CompressedPart {
  let part = compressed.get(owner);
  if (part === undefined) {
    const whole = Buffer.concat(parts);
    const output = deflateRawSync(whole, {
      level: GZIP_LEVEL,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    part = {
      deflated: exactCopy(output),
      crc: crc32(whole),
      length: whole.length,
    };
    compressed.set(owner, part);
  }
  return part;
}

/**
 * `bytes` in memory of their own size. zlib's synchronous calls answer a view
 * into their whole output chunk: kept for as long as the stored answer lives,
 * a small compressed part would hold that chunk while the response cache's
 * bound counts only the part.
 */
function exactCopy(bytes: Buffer): Buffer {
  if (bytes.byteLength === bytes.buffer.byteLength) return bytes;
  // Not from Buffer's shared pool either, which would hold its own larger slab.
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(copy);
  return copy;
}

/**
 * The gzip body of `parts` followed by `tail`: `parts` are compressed on the first call for
 * `owner` (a stored answer: the same parts every time) and kept with it; `tail` on every call.
 */
export function gzipWithTail(
  owner: object,
  parts: readonly Buffer[],
  tail: Buffer,
): readonly Buffer[] {
  const part = compressedOnce(owner, parts);
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc32(tail, part.crc), 0);
  // ISIZE: the uncompressed length modulo 2^32.
  trailer.writeUInt32LE((part.length + tail.length) % 2 ** 32, 4);
  return [GZIP_HEADER, part.deflated, ...storedBlocks(tail), trailer];
}

/** Largest length of a stored DEFLATE block. */
const MAX_STORED = 0xffff;

/** `bytes` as stored (uncompressed) DEFLATE blocks, the last one final (RFC 1951, 3.2.4). */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  let offset = 0;
  do {
    const length = Math.min(MAX_STORED, bytes.length - offset);
    const last = offset + length === bytes.length;
    const header = Buffer.allocUnsafe(5);
    // BFINAL in the low bit, BTYPE 00 (stored); the rest of the byte is padding to the boundary.
    header.writeUInt8(last ? 1 : 0, 0);
    header.writeUInt16LE(length, 1);
    header.writeUInt16LE(~length & 0xffff, 3);
    blocks.push(header, bytes.subarray(offset, offset + length));
    offset += length;
  } while (offset < bytes.length);
  return blocks;
}

/** Whether the request accepts a gzip answer (its Accept-Encoding, q-values weighed). */
export function acceptsGzip(req: IncomingMessage): boolean {
  return (
    req.headers['accept-encoding'] !== undefined &&
    new Negotiator(req).encodings(['gzip']).length > 0
  );
}
