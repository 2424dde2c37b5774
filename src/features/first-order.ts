import { finish, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { BOS } from "./feature-sentence.js";

/** Upper bound on the number of feature indices `arcFeatures` writes for one arc. */
export const MAX_ARC_FEATURES = 256;
/** Number of indices `headFeatures` and `modifierFeatures` each write. */
export const UNIGRAM_FEATURES = 12;

/** Binned, directed distance code for arc h→m (McDonald et al. 2005 style bins: 1..5, 6–10, 11–20, >20). */
export function dirDist(h: number, m: number): number {
  const d = h < m ? m - h : h - m;
  const bin = d <= 5 ? d : d <= 10 ? 6 : d <= 20 ? 7 : 8;
  return (h < m ? 0x100 : 0x200) | bin;
}

/** Dense index 0..31 of a `dirDist` code (for per-token caches). */
export function dirDistIndex(dd: number): number {
  return ((dd >> 9) << 4) | (dd & 15);
}

/**
 * The key that conjoins a feature with direction/distance code dd: a small non-zero number (< 32),
 * distinct per code, so the conjoined weight lies in the same 128-byte block as the base weight and
 * both usually cost one cache miss.
 */
export function dirDistKey(dd: number): number {
  return dirDistIndex(dd);
}

/**
 * Writes feature v at out[k], and v conjoined with direction/distance at out[k + 1]: the conjoined
 * index is the base index XOR a small per-bin key, which costs one hash instead of two and stays in
 * the base weight's cache-line pair.
 */
function put(out: Int32Array, k: number, v: number, key: number, mask: number): void {
  const f = finish(v);
  out[k] = f & mask;
  out[k + 1] = (f ^ key) & mask;
}

/** Unigram features of the head side of an arc (word, prefix, XPOS, UPOS). Writes 12 indices at k. */
export function headFeatures(
  x: FeatureSentence,
  h: number,
  dd: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const key = dirDistKey(dd);
  const hw = x.word[h]!;
  const hf = x.prefix[h]!;
  const hp = x.xpos[h]!;
  put(out, k, mix(mix(1, hw), hp), key, mask);
  put(out, k + 2, mix(2, hw), key, mask);
  put(out, k + 4, mix(3, hp), key, mask);
  put(out, k + 6, mix(mix(4, hf), hp), key, mask);
  put(out, k + 8, mix(5, hf), key, mask);
  put(out, k + 10, mix(6, x.upos[h]!), key, mask);
  return k + 12;
}

/** Unigram features of the modifier side of an arc. Writes 12 indices at k. */
export function modifierFeatures(
  x: FeatureSentence,
  m: number,
  dd: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const key = dirDistKey(dd);
  const mw = x.word[m]!;
  const mf = x.prefix[m]!;
  const mp = x.xpos[m]!;
  put(out, k, mix(mix(11, mw), mp), key, mask);
  put(out, k + 2, mix(12, mw), key, mask);
  put(out, k + 4, mix(13, mp), key, mask);
  put(out, k + 6, mix(mix(14, mf), mp), key, mask);
  put(out, k + 8, mix(15, mf), key, mask);
  put(out, k + 10, mix(16, x.upos[m]!), key, mask);
  return k + 12;
}

/**
 * Features of arc h→m that depend on both ends (McDonald et al. 2005): bigram features over words,
 * prefixes, XPOS and UPOS; surrounding-tag features with trigram back-offs; in-between UPOS features
 * (each distinct tag between h and m once). Each is emitted alone and conjoined with direction and
 * binned distance. Writes at out[k…] and returns the new end.
 */
export function pairFeatures(
  x: FeatureSentence,
  h: number,
  m: number,
  dd: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const key = dirDistKey(dd);
  const W = x.word;
  const F = x.prefix;
  const P = x.xpos;
  const C = x.upos;
  const hw = W[h]!;
  const hf = F[h]!;
  const hp = P[h]!;
  const hc = C[h]!;
  const mw = W[m]!;
  const mf = F[m]!;
  const mp = P[m]!;
  const mc = C[m]!;
  const hwhp = mix(mix(21, hw), hp);
  put(out, k, mix(mix(hwhp, mw), mp), key, mask);
  put(out, k + 2, mix(mix(mix(22, hp), mw), mp), key, mask);
  put(out, k + 4, mix(mix(mix(23, hw), mw), mp), key, mask);
  put(out, k + 6, mix(mix(mix(mix(24, hw), hp), 0), mp), key, mask);
  put(out, k + 8, mix(mix(mix(mix(25, hw), hp), mw), 0), key, mask);
  put(out, k + 10, mix(mix(26, hw), mw), key, mask);
  put(out, k + 12, mix(mix(27, hp), mp), key, mask);
  put(out, k + 14, mix(mix(28, hc), mc), key, mask);
  put(out, k + 16, mix(mix(mix(mix(29, hf), hp), mf), mp), key, mask);
  put(out, k + 18, mix(mix(mix(30, hc), mw), mc), key, mask);
  put(out, k + 20, mix(mix(mix(31, hw), hc), mc), key, mask);
  k += 22;
  // 5-character-prefix back-offs of the word bigrams (only informative when a word is longer than 5).
  if (hf !== hw || mf !== mw) {
    put(out, k, mix(mix(mix(32, hp), mf), mp), key, mask);
    put(out, k + 2, mix(mix(mix(33, hf), mf), mp), key, mask);
    put(out, k + 4, mix(mix(mix(34, hf), hp), mp), key, mask);
    put(out, k + 6, mix(mix(mix(35, hf), hp), mf), key, mask);
    put(out, k + 8, mix(mix(36, hf), mf), key, mask);
    k += 10;
  }
  // Surrounding tags (XPOS), with trigram back-offs.
  const hpL = h > 0 ? P[h - 1]! : BOS;
  const hpR = P[h + 1]!;
  const mpL = m > 0 ? P[m - 1]! : BOS;
  const mpR = P[m + 1]!;
  put(out, k, mix(mix(mix(mix(41, hp), hpR), mpL), mp), key, mask);
  put(out, k + 2, mix(mix(mix(mix(42, hpL), hp), mpL), mp), key, mask);
  put(out, k + 4, mix(mix(mix(mix(43, hp), hpR), mp), mpR), key, mask);
  put(out, k + 6, mix(mix(mix(mix(44, hpL), hp), mp), mpR), key, mask);
  put(out, k + 8, mix(mix(mix(45, hp), mpL), mp), key, mask);
  put(out, k + 10, mix(mix(mix(46, hp), hpR), mp), key, mask);
  put(out, k + 12, mix(mix(mix(47, hpL), hp), mp), key, mask);
  put(out, k + 14, mix(mix(mix(48, hp), mp), mpR), key, mask);
  k += 16;
  // Surrounding tags (UPOS).
  const hcL = h > 0 ? C[h - 1]! : BOS;
  const hcR = C[h + 1]!;
  const mcL = m > 0 ? C[m - 1]! : BOS;
  const mcR = C[m + 1]!;
  put(out, k, mix(mix(mix(mix(51, hc), hcR), mcL), mc), key, mask);
  put(out, k + 2, mix(mix(mix(mix(52, hcL), hc), mcL), mc), key, mask);
  put(out, k + 4, mix(mix(mix(mix(53, hc), hcR), mc), mcR), key, mask);
  put(out, k + 6, mix(mix(mix(mix(54, hcL), hc), mc), mcR), key, mask);
  k += 8;
  // In-between tags: each distinct UPOS (from prefix counts) and XPOS (by a span scan) strictly
  // between h and m once; adjacent arcs get one "nothing between" feature.
  const lo = h < m ? h : m;
  const hi = h < m ? m : h;
  if (hi - lo > 1) {
    const T = x.numCats;
    const cc = x.catCount;
    const a = lo * T;
    const b = (hi - 1) * T;
    const catHash = x.catHash;
    const base = mix(mix(61, hc), mc);
    for (let c = 1; c < T; c++) {
      if (cc[b + c]! - cc[a + c]! > 0) {
        put(out, k, mix(base, catHash[c]!), key, mask);
        k += 2;
      }
    }
    const stamp = ++x.stampClock;
    const seen = x.xposSeen;
    const xid = x.xposId;
    const pbase = mix(mix(63, hp), mp);
    const limit = MAX_ARC_FEATURES - 2;
    for (let i = lo + 1; i < hi && k < limit; i++) {
      const t = xid[i]!;
      if (seen[t] !== stamp) {
        seen[t] = stamp;
        put(out, k, mix(pbase, P[i]!), key, mask);
        k += 2;
      }
    }
  } else {
    put(out, k, mix(mix(62, hc), mc), key, mask);
    k += 2;
  }
  return k;
}

/** Writes every feature index of arc h→m (reduced by `mask`) into `out` and returns their count. */
export function arcFeatures(x: FeatureSentence, h: number, m: number, out: Int32Array, mask: number): number {
  const dd = dirDist(h, m);
  let k = headFeatures(x, h, dd, out, 0, mask);
  k = modifierFeatures(x, m, dd, out, k, mask);
  return pairFeatures(x, h, m, dd, out, k, mask);
}
