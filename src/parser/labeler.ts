import type { FeatureSentence } from "../features/feature-sentence.js";
import { BOS } from "../features/feature-sentence.js";
import { dirDist } from "../features/first-order.js";
import { finishBits, mix } from "../util/hash.js";

/** Per word of a tree: XPOS atom of its leftmost left child and rightmost right child (BOS if none), child count. */
export class ChildSummary {
  leftTag = new Int32Array(0);
  rightTag = new Int32Array(0);
  count = new Int32Array(0);

  /** Fills the summary for the tree `heads` over the words of `x` (one pass over the sentence). */
  fill(x: FeatureSentence, heads: ArrayLike<number>): this {
    const n = x.n;
    if (this.count.length < n + 1) {
      this.leftTag = new Int32Array(2 * (n + 1));
      this.rightTag = new Int32Array(2 * (n + 1));
      this.count = new Int32Array(2 * (n + 1));
    }
    this.leftTag.fill(BOS, 0, n + 1);
    this.rightTag.fill(BOS, 0, n + 1);
    this.count.fill(0, 0, n + 1);
    const P = x.xpos;
    for (let i = 1; i <= n; i++) {
      const h = heads[i]!;
      if (h < 0) continue;
      if (i < h && this.leftTag[h] === BOS) this.leftTag[h] = P[i]!;
      if (i > h) this.rightTag[h] = P[i]!;
      this.count[h]!++;
    }
    return this;
  }
}

/** Maximum number of features `labelFeatures` emits for one arc. */
export const MAX_LABEL_FEATURES = 32;

/**
 * Features for labelling arc h→m given the whole predicted tree (summarized in `kids`): words and tags of head and
 * modifier, their neighbours, direction/distance, and the modifier's leftmost/rightmost child tags.
 * Indices are feature-row numbers (hash & rowMask); the label is added by the caller.
 */
export function labelFeatures(
  x: FeatureSentence,
  kids: ChildSummary,
  h: number,
  m: number,
  out: Int32Array,
  rowMask: number,
): number {
  const W = x.word;
  const P = x.xpos;
  const C = x.upos;
  const hw = W[h]!;
  const hp = P[h]!;
  const hc = C[h]!;
  const mw = W[m]!;
  const mp = P[m]!;
  const mc = C[m]!;
  const dd = dirDist(h, m);
  const mpL = P[m - 1]!;
  const mpR = P[m + 1]!;
  const hpL = h > 0 ? P[h - 1]! : BOS;
  const hpR = P[h + 1]!;
  const lc = kids.leftTag[m]!;
  const rc = kids.rightTag[m]!;
  const nKids = kids.count[m]!;
  let k = 0;
  out[k++] = finishBits(mix(1, hw)) & rowMask;
  out[k++] = finishBits(mix(2, hp)) & rowMask;
  out[k++] = finishBits(mix(3, mw)) & rowMask;
  out[k++] = finishBits(mix(4, mp)) & rowMask;
  out[k++] = finishBits(mix(mix(5, hp), mp)) & rowMask;
  out[k++] = finishBits(mix(mix(6, hw), mp)) & rowMask;
  out[k++] = finishBits(mix(mix(7, hp), mw)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(8, hc), mc), dd)) & rowMask;
  out[k++] = finishBits(mix(9, dd)) & rowMask;
  out[k++] = finishBits(mix(mix(10, mp), mpL)) & rowMask;
  out[k++] = finishBits(mix(mix(11, mp), mpR)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(12, hp), mp), dd)) & rowMask;
  out[k++] = finishBits(mix(mix(13, mw), dd)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(14, mp), lc), rc)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(15, hp), mp), lc)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(16, hp), mp), rc)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(17, hpL), hp), mp)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(18, hp), hpR), mp)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(19, hw), mw), dd)) & rowMask;
  out[k++] = finishBits(mix(mix(mix(20, mc), nKids > 3 ? 3 : nKids), dd)) & rowMask;
  out[k++] = finishBits(mix(mix(21, x.prefix[m]!), hc)) & rowMask;
  out[k++] = finishBits(mix(mix(22, h === 0 ? 1 : 0), mc)) & rowMask;
  return k;
}
