/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) lookup tables, slicing by four bytes. */
const TABLES = (() => {
  const t = new Int32Array(4 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c;
  }
  // Table s: the CRC step of a byte followed by s zero bytes.
  for (let s = 1; s < 4; s++)
    for (let i = 0; i < 256; i++) {
      const prev = t[(s - 1) * 256 + i]!;
      t[s * 256 + i] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  return t;
})();

/**
 * CRC-32 of `data`, continuing from `value` (the CRC of the bytes before it; 0 to start), as zlib's
 * crc32 computes it: for decoding model files where Node's zlib is not available.
 */
export function crc32(data: Uint8Array, value = 0): number {
  const t = TABLES;
  let c = ~value;
  let i = 0;
  const n = data.length;
  for (; i + 4 <= n; i += 4) {
    c ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    c = t[768 + (c & 0xff)]! ^ t[512 + ((c >>> 8) & 0xff)]! ^ t[256 + ((c >>> 16) & 0xff)]! ^ t[c >>> 24]!;
  }
  for (; i < n; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
