import { finish, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { BOS } from "./feature-sentence.js";

/** Upper bound on the number of feature indices `arcFeatures` writes for one arc. */
export const MAX_ARC_FEATURES = 128;

/** Binned, directed distance code for arc h→m (McDonald et al. 2005 style bins: 1..5, 6–10, 11–20, >20). */
export function dirDist(h: number, m: number): number {
  const d = h < m ? m - h : h - m;
  const bin = d <= 5 ? d : d <= 10 ? 6 : d <= 20 ? 7 : 8;
  return (h < m ? 0x100 : 0x200) | bin;
}

function f2(t: number, a: number, b: number): number {
  return mix(mix(t, a), b);
}
function f3(t: number, a: number, b: number, c: number): number {
  return mix(mix(mix(t, a), b), c);
}
function f4(t: number, a: number, b: number, c: number, d: number): number {
  return mix(mix(mix(mix(t, a), b), c), d);
}

/**
 * Writes the hashed feature indices (already reduced by `mask`) of arc h→m into `out` and returns their
 * count. Templates follow McDonald et al. (2005): unigram and bigram features of head and modifier over
 * words, 5-character prefixes, XPOS and UPOS; in-between UPOS features (each distinct tag once); and
 * surrounding-XPOS/UPOS features. Every feature is emitted twice: alone and conjoined with direction and
 * binned distance.
 */
export function arcFeatures(x: FeatureSentence, h: number, m: number, out: Int32Array, mask: number): number {
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
  const dd = dirDist(h, m);
  let k = 0;
  let v = 0;
  // Unigram: head.
  v = f2(1, hw, hp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(2, hw);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(3, hp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f2(4, hf, hp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(5, hf);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(6, hc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  // Unigram: modifier.
  v = f2(11, mw, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(12, mw);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(13, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f2(14, mf, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(15, mf);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = mix(16, mc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  // Bigram.
  v = f4(21, hw, hp, mw, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(22, hp, mw, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(23, hw, mw, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(24, hw, hp, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(25, hw, hp, mw);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f2(26, hw, mw);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f2(27, hp, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f2(28, hc, mc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(29, hf, hp, mf, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(30, hc, mw, mc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(31, hw, hc, mc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  // Surrounding tags (XPOS), with trigram back-offs.
  const hpL = h > 0 ? P[h - 1]! : BOS;
  const hpR = P[h + 1]!;
  const mpL = m > 0 ? P[m - 1]! : BOS;
  const mpR = P[m + 1]!;
  v = f4(41, hp, hpR, mpL, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(42, hpL, hp, mpL, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(43, hp, hpR, mp, mpR);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(44, hpL, hp, mp, mpR);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(45, hp, mpL, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(46, hp, hpR, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(47, hpL, hp, mp);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f3(48, hp, mp, mpR);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  // Surrounding tags (UPOS).
  const hcL = h > 0 ? C[h - 1]! : BOS;
  const hcR = C[h + 1]!;
  const mcL = m > 0 ? C[m - 1]! : BOS;
  const mcR = C[m + 1]!;
  v = f4(51, hc, hcR, mcL, mc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(52, hcL, hc, mcL, mc);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(53, hc, hcR, mc, mcR);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  v = f4(54, hcL, hc, mc, mcR);
  out[k++] = finish(v) & mask;
  out[k++] = finish(mix(v, dd)) & mask;
  // In-between UPOS: each distinct category between h and m once.
  const lo = h < m ? h : m;
  const hi = h < m ? m : h;
  if (hi - lo > 1) {
    const T = x.numCats;
    const cc = x.catCount;
    const a = lo * T;
    const b = (hi - 1) * T;
    const catHash = x.catHash;
    const base = f2(61, hc, mc);
    for (let c = 1; c < T; c++) {
      if (cc[b + c]! - cc[a + c]! > 0) {
        v = mix(base, catHash[c]!);
        out[k++] = finish(v) & mask;
        out[k++] = finish(mix(v, dd)) & mask;
        if (k >= MAX_ARC_FEATURES - 2) break;
      }
    }
  } else {
    v = f2(62, hc, mc);
    out[k++] = finish(v) & mask;
    out[k++] = finish(mix(v, dd)) & mask;
  }
  return k;
}
