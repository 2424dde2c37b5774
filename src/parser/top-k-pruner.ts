import { EisnerMaxMarginals } from "../decode/eisner-max-marginals.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import { ArcMask } from "../prune/arc-mask.js";
import { ArcScorer } from "./arc-scorer.js";
import type { QuantizedWeights } from "../model/model-file.js";

/** How a `TopKPruner` ranks the heads of a token: by arc score, or by max-marginal (best tree through the arc). */
export type PruneRank = "score" | "max-marginal";

/**
 * First-order pruning for higher-order parsing (Koo & Collins 2010): a first-order arc model scores
 * every arc a caller's mask allows, and each token keeps only its `k` best heads, and of those only the
 * ones within `margin` of its best head. Heads are ranked by arc score or by projective max-marginal
 * (the score of the best tree containing the arc, as in Rush & Petrov 2012), which accounts for the
 * rest of the tree. The result is a subset of the caller's mask.
 */
export class TopKPruner {
  /** The first-order scorer (its `scored` counts the arcs of the last `prune`). */
  readonly scorer: ArcScorer;
  private readonly topScore: Float64Array;
  private readonly topHead: Int32Array;
  private readonly marginals = new EisnerMaxMarginals();
  private mm = new Float64Array(0);

  constructor(
    /**
     * First-order arc weights (length a power of two): floats, or a parser's 16-bit table with its
     * scale (so a loaded parser needs no float copy).
     */
    weights: Float32Array | QuantizedWeights,
    /** Heads kept per token (≥ 1). */
    readonly k: number,
    /** Heads scoring below best − margin are dropped too (Infinity = top-k only). */
    readonly margin = Number.POSITIVE_INFINITY,
    /** Ranking of the heads (default max-marginal). */
    readonly rank: PruneRank = "max-marginal",
  ) {
    if (!(k >= 1)) throw new RangeError(`TopKPruner: k must be ≥ 1 (got ${k})`);
    this.scorer =
      weights instanceof Float32Array
        ? new ArcScorer(weights)
        : new ArcScorer(weights.weights, weights.scale);
    this.topScore = new Float64Array(k);
    this.topHead = new Int32Array(k);
  }

  /** The mask of each token's k best heads among those `mask` allows (all arcs when null). */
  prune(x: FeatureSentence, mask: ArcMask | null): ArcMask {
    const n = x.n;
    const size = n + 1;
    let scores = this.scorer.scoreAll(x, mask);
    if (this.rank === "max-marginal") {
      if (this.mm.length < size * size) this.mm = new Float64Array(size * size * 2);
      // When the mask admits no tree every marginal is -Infinity: rank by arc score instead.
      if (this.marginals.compute(n, scores, mask, this.mm).best > Number.NEGATIVE_INFINITY) scores = this.mm;
    }
    const out = ArcMask.empty(n);
    const bits = out.bits;
    const k = this.k;
    const ts = this.topScore;
    const th = this.topHead;
    for (let m = 1; m <= n; m++) {
      let len = 0;
      for (let h = 0; h <= n; h++) {
        const v = scores[h * size + m]!;
        if (h === m || v === Number.NEGATIVE_INFINITY) continue;
        if (len === k && v <= ts[k - 1]!) continue;
        // Insert into the descending list (ties keep the earlier head first).
        let i = len < k ? len++ : k - 1;
        while (i > 0 && ts[i - 1]! < v) {
          ts[i] = ts[i - 1]!;
          th[i] = th[i - 1]!;
          i--;
        }
        ts[i] = v;
        th[i] = h;
      }
      const floor = len > 0 ? ts[0]! - this.margin : 0;
      for (let i = 0; i < len; i++) if (ts[i]! >= floor) bits[th[i]! * size + m] = 1;
    }
    return out;
  }
}
