/** 32-bit FNV-1a hash of a string's UTF-16 code units; stable across runs, used to turn words and tags into feature atoms. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Mixes an integer into a running 32-bit hash (murmur3-style round); used to hash feature tuples without strings. */
export function mix(h: number, x: number): number {
  let k = Math.imul(x | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** Final avalanche of a running hash (murmur3 fmix32), as an unsigned 32-bit integer. */
export function finish(h: number): number {
  return finishBits(h) >>> 0;
}

/**
 * `finish` as a signed 32-bit integer (the same bits), for callers that only mask or xor it: a
 * signed 32-bit result stays a small integer in V8, while an unsigned one above 2^31 is boxed in a
 * heap number whenever the call is not inlined (millions of short-lived allocations per parse).
 */
export function finishBits(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
