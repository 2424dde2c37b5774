import { finish, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { BOS } from "./atoms.js";

/** Upper bound on the number of feature indices `arcFeatures` writes for one arc. */
export const MAX_ARC_FEATURES = 256;
/** Number of indices `headFeatures` and `modifierFeatures` each write. */
export const UNIGRAM_FEATURES = 16;

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

/** Unigram features of the head side of an arc (word, prefix, suffix, XPOS, UPOS). Writes 16 indices at k. */
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
  const hc = x.upos[h]!;
  const hs = x.suffix[h]!;
  put(out, k + 10, mix(6, hc), key, mask);
  put(out, k + 12, mix(7, hs), key, mask);
  put(out, k + 14, mix(mix(8, hs), hc), key, mask);
  return k + 16;
}

/** Unigram features of the modifier side of an arc. Writes 16 indices at k. */
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
  const mc = x.upos[m]!;
  const ms = x.suffix[m]!;
  put(out, k + 10, mix(16, mc), key, mask);
  put(out, k + 12, mix(17, ms), key, mask);
  put(out, k + 14, mix(mix(18, ms), mc), key, mask);
  return k + 16;
}

/** Number of head-side template states per token in `FeatureSentence.headPre`. */
export const HEAD_SLOTS = 34;

/**
 * Mixes, once per token, the head-side part of every pair template (every template mixes its head
 * atoms first), so that an arc only mixes in its modifier atoms. Called by `AtomCache.prepare`.
 */
export function fillHeadPrefixes(x: FeatureSentence): void {
  const n = x.n;
  if (x.headPre.length < (n + 1) * HEAD_SLOTS) x.headPre = new Int32Array((n + 1) * HEAD_SLOTS * 2);
  const H = x.headPre;
  const W = x.word;
  const F = x.prefix;
  const P = x.xpos;
  const C = x.upos;
  for (let h = 0; h <= n; h++) {
    const o = h * HEAD_SLOTS;
    const hw = W[h]!;
    const hf = F[h]!;
    const hp = P[h]!;
    const hc = C[h]!;
    const hpL = h > 0 ? P[h - 1]! : BOS;
    const hpR = P[h + 1]!;
    const hcL = h > 0 ? C[h - 1]! : BOS;
    const hcR = C[h + 1]!;
    H[o] = mix(mix(21, hw), hp);
    H[o + 1] = mix(22, hp);
    H[o + 2] = mix(23, hw);
    H[o + 3] = mix(mix(mix(24, hw), hp), 0);
    H[o + 4] = mix(mix(25, hw), hp);
    H[o + 5] = mix(26, hw);
    H[o + 6] = mix(27, hp);
    H[o + 7] = mix(28, hc);
    H[o + 8] = mix(mix(29, hf), hp);
    H[o + 9] = mix(30, hc);
    H[o + 10] = mix(mix(31, hw), hc);
    H[o + 11] = mix(32, hp);
    H[o + 12] = mix(33, hf);
    H[o + 13] = mix(mix(34, hf), hp);
    H[o + 14] = mix(mix(35, hf), hp);
    H[o + 15] = mix(36, hf);
    H[o + 16] = mix(mix(41, hp), hpR);
    H[o + 17] = mix(mix(42, hpL), hp);
    H[o + 18] = mix(mix(43, hp), hpR);
    H[o + 19] = mix(mix(44, hpL), hp);
    H[o + 20] = mix(45, hp);
    H[o + 21] = mix(mix(46, hp), hpR);
    H[o + 22] = mix(mix(47, hpL), hp);
    H[o + 23] = mix(48, hp);
    H[o + 24] = mix(mix(51, hc), hcR);
    H[o + 25] = mix(mix(52, hcL), hc);
    H[o + 26] = mix(mix(53, hc), hcR);
    H[o + 27] = mix(mix(54, hcL), hc);
    H[o + 28] = mix(61, hc);
    H[o + 29] = mix(63, hp);
    H[o + 30] = mix(62, hc);
    const hs = x.suffix[h]!;
    H[o + 31] = mix(37, hs);
    H[o + 32] = mix(38, hs);
    H[o + 33] = mix(39, hc);
  }
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
  const mw = W[m]!;
  const mf = F[m]!;
  const mp = P[m]!;
  const mc = C[m]!;
  const mpL = P[m - 1]!;
  const mpR = P[m + 1]!;
  const mcL = C[m - 1]!;
  const mcR = C[m + 1]!;
  // Head-side template states, mixed once per token by `fillHeadPrefixes`.
  const H = x.headPre;
  const o = h * HEAD_SLOTS;
  put(out, k, mix(mix(H[o]!, mw), mp), key, mask);
  put(out, k + 2, mix(mix(H[o + 1]!, mw), mp), key, mask);
  put(out, k + 4, mix(mix(H[o + 2]!, mw), mp), key, mask);
  put(out, k + 6, mix(H[o + 3]!, mp), key, mask);
  put(out, k + 8, mix(mix(H[o + 4]!, mw), 0), key, mask);
  put(out, k + 10, mix(H[o + 5]!, mw), key, mask);
  put(out, k + 12, mix(H[o + 6]!, mp), key, mask);
  put(out, k + 14, mix(H[o + 7]!, mc), key, mask);
  put(out, k + 16, mix(mix(H[o + 8]!, mf), mp), key, mask);
  put(out, k + 18, mix(mix(H[o + 9]!, mw), mc), key, mask);
  put(out, k + 20, mix(H[o + 10]!, mc), key, mask);
  // Suffix pairs: morphology that survives tagging errors.
  const ms = x.suffix[m]!;
  put(out, k + 22, mix(H[o + 31]!, ms), key, mask);
  put(out, k + 24, mix(H[o + 32]!, mc), key, mask);
  put(out, k + 26, mix(H[o + 33]!, ms), key, mask);
  k += 28;
  // 5-character-prefix back-offs of the word bigrams (only informative when a word is longer than 5).
  if (hf !== hw || mf !== mw) {
    put(out, k, mix(mix(H[o + 11]!, mf), mp), key, mask);
    put(out, k + 2, mix(mix(H[o + 12]!, mf), mp), key, mask);
    put(out, k + 4, mix(H[o + 13]!, mp), key, mask);
    put(out, k + 6, mix(H[o + 14]!, mf), key, mask);
    put(out, k + 8, mix(H[o + 15]!, mf), key, mask);
    k += 10;
  }
  // Surrounding tags (XPOS), with trigram back-offs.
  put(out, k, mix(mix(H[o + 16]!, mpL), mp), key, mask);
  put(out, k + 2, mix(mix(H[o + 17]!, mpL), mp), key, mask);
  put(out, k + 4, mix(mix(H[o + 18]!, mp), mpR), key, mask);
  put(out, k + 6, mix(mix(H[o + 19]!, mp), mpR), key, mask);
  put(out, k + 8, mix(mix(H[o + 20]!, mpL), mp), key, mask);
  put(out, k + 10, mix(H[o + 21]!, mp), key, mask);
  put(out, k + 12, mix(H[o + 22]!, mp), key, mask);
  put(out, k + 14, mix(mix(H[o + 23]!, mp), mpR), key, mask);
  k += 16;
  // Surrounding tags (UPOS).
  put(out, k, mix(mix(H[o + 24]!, mcL), mc), key, mask);
  put(out, k + 2, mix(mix(H[o + 25]!, mcL), mc), key, mask);
  put(out, k + 4, mix(mix(H[o + 26]!, mc), mcR), key, mask);
  put(out, k + 6, mix(mix(H[o + 27]!, mc), mcR), key, mask);
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
    const base = mix(H[o + 28]!, mc);
    for (let c = 1; c < T; c++) {
      if (cc[b + c]! - cc[a + c]! > 0) {
        put(out, k, mix(base, catHash[c]!), key, mask);
        k += 2;
      }
    }
    const stamp = ++x.stampClock;
    const seen = x.xposSeen;
    const xid = x.xposId;
    const pbase = mix(H[o + 29]!, mp);
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
    put(out, k, mix(H[o + 30]!, mc), key, mask);
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
