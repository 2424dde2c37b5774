import type { FeatureSentence } from "../features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../features/first-order.js";
import type { ArcMask } from "../prune/arc-mask.js";

/** Scores first-order arcs of a sentence with a hashed linear model, skipping arcs a mask prunes. */
export class ArcScorer {
  /** Reusable buffer of feature indices for one arc. */
  readonly buf = new Int32Array(MAX_ARC_FEATURES);
  /** Reusable score matrix, grown as needed; scores[h * (n + 1) + m]. */
  scores = new Float64Array(0);
  /** Number of arcs whose features were extracted by the last `scoreAll` (for measurements). */
  scored = 0;

  constructor(
    /** Weight vector (length a power of two). */
    public weights: Float32Array,
  ) {}

  /** Fills `this.scores` for every allowed arc of `x` (all arcs when mask is null) and returns it. */
  scoreAll(x: FeatureSentence, mask: ArcMask | null): Float64Array {
    const n = x.n;
    const size = n + 1;
    if (this.scores.length < size * size) this.scores = new Float64Array(size * size * 2);
    const scores = this.scores;
    const w = this.weights;
    const wmask = w.length - 1;
    const buf = this.buf;
    const bits = mask === null ? null : mask.bits;
    let scored = 0;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      for (let m = 1; m <= n; m++) {
        if (m === h || (bits !== null && bits[row + m] === 0)) {
          scores[row + m] = Number.NEGATIVE_INFINITY;
          continue;
        }
        const k = arcFeatures(x, h, m, buf, wmask);
        let s = 0;
        for (let i = 0; i < k; i++) s += w[buf[i]!]!;
        scores[row + m] = s;
        scored++;
      }
    }
    this.scored = scored;
    return scores;
  }
}
