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

/** Writes feature v alone and conjoined with dd at out[k], out[k + 1]. */
function put(out: Int32Array, k: number, v: number, dd: number, mask: number): void {
  out[k] = finish(v) & mask;
  out[k + 1] = finish(mix(v, dd)) & mask;
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
  const hw = x.word[h]!;
  const hf = x.prefix[h]!;
  const hp = x.xpos[h]!;
  put(out, k, mix(mix(1, hw), hp), dd, mask);
  put(out, k + 2, mix(2, hw), dd, mask);
  put(out, k + 4, mix(3, hp), dd, mask);
  put(out, k + 6, mix(mix(4, hf), hp), dd, mask);
  put(out, k + 8, mix(5, hf), dd, mask);
  put(out, k + 10, mix(6, x.upos[h]!), dd, mask);
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
  const mw = x.word[m]!;
  const mf = x.prefix[m]!;
  const mp = x.xpos[m]!;
  put(out, k, mix(mix(11, mw), mp), dd, mask);
  put(out, k + 2, mix(12, mw), dd, mask);
  put(out, k + 4, mix(13, mp), dd, mask);
  put(out, k + 6, mix(mix(14, mf), mp), dd, mask);
  put(out, k + 8, mix(15, mf), dd, mask);
  put(out, k + 10, mix(16, x.upos[m]!), dd, mask);
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
  put(out, k, mix(mix(hwhp, mw), mp), dd, mask);
  put(out, k + 2, mix(mix(mix(22, hp), mw), mp), dd, mask);
  put(out, k + 4, mix(mix(mix(23, hw), mw), mp), dd, mask);
  put(out, k + 6, mix(mix(mix(mix(24, hw), hp), 0), mp), dd, mask);
  put(out, k + 8, mix(mix(mix(mix(25, hw), hp), mw), 0), dd, mask);
  put(out, k + 10, mix(mix(26, hw), mw), dd, mask);
  put(out, k + 12, mix(mix(27, hp), mp), dd, mask);
  put(out, k + 14, mix(mix(28, hc), mc), dd, mask);
  put(out, k + 16, mix(mix(mix(mix(29, hf), hp), mf), mp), dd, mask);
  put(out, k + 18, mix(mix(mix(30, hc), mw), mc), dd, mask);
  put(out, k + 20, mix(mix(mix(31, hw), hc), mc), dd, mask);
  k += 22;
  // 5-character-prefix back-offs of the word bigrams (only informative when a word is longer than 5).
  if (hf !== hw || mf !== mw) {
    put(out, k, mix(mix(mix(32, hp), mf), mp), dd, mask);
    put(out, k + 2, mix(mix(mix(33, hf), mf), mp), dd, mask);
    put(out, k + 4, mix(mix(mix(34, hf), hp), mp), dd, mask);
    put(out, k + 6, mix(mix(mix(35, hf), hp), mf), dd, mask);
    put(out, k + 8, mix(mix(36, hf), mf), dd, mask);
    k += 10;
  }
  // Surrounding tags (XPOS), with trigram back-offs.
  const hpL = h > 0 ? P[h - 1]! : BOS;
  const hpR = P[h + 1]!;
  const mpL = m > 0 ? P[m - 1]! : BOS;
  const mpR = P[m + 1]!;
  put(out, k, mix(mix(mix(mix(41, hp), hpR), mpL), mp), dd, mask);
  put(out, k + 2, mix(mix(mix(mix(42, hpL), hp), mpL), mp), dd, mask);
  put(out, k + 4, mix(mix(mix(mix(43, hp), hpR), mp), mpR), dd, mask);
  put(out, k + 6, mix(mix(mix(mix(44, hpL), hp), mp), mpR), dd, mask);
  put(out, k + 8, mix(mix(mix(45, hp), mpL), mp), dd, mask);
  put(out, k + 10, mix(mix(mix(46, hp), hpR), mp), dd, mask);
  put(out, k + 12, mix(mix(mix(47, hpL), hp), mp), dd, mask);
  put(out, k + 14, mix(mix(mix(48, hp), mp), mpR), dd, mask);
  k += 16;
  // Surrounding tags (UPOS).
  const hcL = h > 0 ? C[h - 1]! : BOS;
  const hcR = C[h + 1]!;
  const mcL = m > 0 ? C[m - 1]! : BOS;
  const mcR = C[m + 1]!;
  put(out, k, mix(mix(mix(mix(51, hc), hcR), mcL), mc), dd, mask);
  put(out, k + 2, mix(mix(mix(mix(52, hcL), hc), mcL), mc), dd, mask);
  put(out, k + 4, mix(mix(mix(mix(53, hc), hcR), mc), mcR), dd, mask);
  put(out, k + 6, mix(mix(mix(mix(54, hcL), hc), mc), mcR), dd, mask);
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
        put(out, k, mix(base, catHash[c]!), dd, mask);
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
        put(out, k, mix(pbase, P[i]!), dd, mask);
        k += 2;
      }
    }
  } else {
    put(out, k, mix(mix(62, hc), mc), dd, mask);
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
