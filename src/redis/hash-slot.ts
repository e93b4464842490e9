/**
 * Which of a Redis Cluster's 16,384 hash slots a key lives in: CRC16
 * (XMODEM) of the key, or of its hash tag (the text between the first `{`
 * and the next `}`, when not empty), modulo 16,384, as the cluster
 * specification defines it. Computed here, not asked of a node, so that
 * reads asked together can be split by slot before they leave.
 */

export const HASH_SLOTS = 16_384;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[byte] = crc & 0xffff;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!) & 0xffff;
  return crc;
}

/** The slot of `key` as Redis sees it: the whole key as sent, prefix included. */
export function hashSlot(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  return crc16(Buffer.from(key, 'utf8')) % HASH_SLOTS;
}

/** `{id}`: the part of a key that decides its slot, so that keys sharing `id` share a slot. */
export function hashTag(id: string): string {
  return `{${id}}`;
}
