import { Rng } from "../util/rng.js";

/** A difference of two systems' accuracies in percentage points, with a bootstrap interval. */
export interface PairedDifference {
  /** Accuracy of A minus accuracy of B on the whole set, in points. */
  difference: number;
  /** Lower end of the central interval of the resampled differences. */
  low: number;
  /** Upper end. */
  high: number;
  /** Share of the resamples in which A is strictly better than B. */
  aBetter: number;
}

/**
 * Paired bootstrap over sentences (Efron & Tibshirani 1993; as Koehn 2004 uses it for MT): the
 * difference of two systems' accuracies on the same sentences, and the central `level` interval of
 * that difference over `samples` resamples of the sentences drawn with replacement, each sentence
 * keeping both systems' counts. correctA[i] / correctB[i] are the items of sentence i each system got
 * right, total[i] its items. Resamples use a seeded generator, so the result is reproducible.
 */
export function pairedBootstrap(
  correctA: ArrayLike<number>,
  correctB: ArrayLike<number>,
  total: ArrayLike<number>,
  samples = 1000,
  level = 0.95,
  seed = 1,
): PairedDifference {
  const n = total.length;
  if (correctA.length !== n || correctB.length !== n)
    throw new RangeError("pairedBootstrap: the three count arrays differ in length");
  if (!(samples >= 1) || !(level > 0 && level < 1))
    throw new RangeError("pairedBootstrap: samples must be ≥ 1 and level in (0, 1)");
  const diff = (a: number, b: number, t: number) => (t === 0 ? 0 : (100 * (a - b)) / t);
  if (n === 0) return { difference: 0, low: 0, high: 0, aBetter: 0 };
  let a = 0;
  let b = 0;
  let t = 0;
  for (let i = 0; i < n; i++) {
    a += correctA[i]!;
    b += correctB[i]!;
    t += total[i]!;
  }
  const ds = new Float64Array(samples);
  const rng = new Rng(seed);
  let better = 0;
  for (let s = 0; s < samples; s++) {
    let sa = 0;
    let sb = 0;
    let st = 0;
    for (let k = 0; k < n; k++) {
      const i = rng.int(n);
      sa += correctA[i]!;
      sb += correctB[i]!;
      st += total[i]!;
    }
    ds[s] = diff(sa, sb, st);
    if (sa > sb) better++;
  }
  ds.sort();
  const tail = (1 - level) / 2;
  const at = (q: number) => ds[Math.min(samples - 1, Math.max(0, Math.floor(q * samples)))]!;
  return { difference: diff(a, b, t), low: at(tail), high: at(1 - tail), aBetter: better / samples };
}
