import { VineScores, vineSlotHead } from "../decode/vine-structure.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../features/first-order.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { ArcScorer } from "../parser/arc-scorer.js";
import { finish, mix } from "../util/hash.js";

/** Number of feature indices of one outer arc (`outerFeatures`). */
export const OUTER_FEATURES = 14;

/** Bucket of the number of long-arc heads an outer arc stands for (1, 2, 3, 4-5, 6-9, 10+). */
function spanBucket(k: number): number {
  return k <= 3 ? k : k <= 5 ? 4 : k <= 9 ? 5 : 6;
}

/**
 * Feature indices of an outer arc of token t on `side` (0 = the other end to the left, 1 = to the
 * right) for band b, reduced by `wmask` (table size − 1): with `role` 0 the modifier-side outer arc
 * (t's head lies beyond the band: ←t, →t), with role 1 the head-side one (t heads a long arc: t⇠, t⇢).
 * Token word and tags with their neighbours' tags, and how many tokens lie beyond the band on that
 * side. Writes `OUTER_FEATURES` indices.
 */
export function outerFeatures(
  x: FeatureSentence,
  t: number,
  side: number,
  band: number,
  out: Int32Array,
  wmask: number,
  role = 0,
): number {
  const n = x.n;
  const far = side === 0 ? t - band - 1 : n - t - band;
  const bucket = spanBucket(far < 0 ? 0 : far);
  const base = role === 0 ? mix(0x7a11e, side) : mix(0x4ead0, side);
  const xp = x.xpos[t]!;
  const up = x.upos[t]!;
  out[0] = finish(mix(base, 1)) & wmask;
  out[1] = finish(mix(mix(base, 2), x.word[t]!)) & wmask;
  out[2] = finish(mix(mix(base, 3), up)) & wmask;
  out[3] = finish(mix(mix(base, 4), xp)) & wmask;
  out[4] = finish(mix(mix(mix(base, 5), xp), x.xpos[t - 1]!)) & wmask;
  out[5] = finish(mix(mix(mix(base, 6), xp), x.xpos[t + 1]!)) & wmask;
  out[6] = finish(mix(mix(mix(mix(base, 7), up), x.upos[t - 1]!), x.upos[t + 1]!)) & wmask;
  out[7] = finish(mix(mix(mix(base, 8), xp), bucket)) & wmask;
  out[8] = finish(mix(mix(mix(base, 9), up), bucket)) & wmask;
  out[9] = finish(mix(mix(mix(base, 10), x.word[t]!), xp)) & wmask;
  // The nearest two tokens beyond the band on that side (the closest other ends the outer arc stands
  // for; root / end-of-sentence atoms when there are none).
  const j1 = side === 0 ? Math.max(0, t - band - 1) : Math.min(n + 1, t + band + 1);
  const j2 = side === 0 ? Math.max(0, t - band - 2) : Math.min(n + 1, t + band + 2);
  out[10] = finish(mix(mix(mix(base, 11), up), x.upos[j1]!)) & wmask;
  out[11] = finish(mix(mix(mix(base, 12), xp), x.xpos[j1]!)) & wmask;
  out[12] = finish(mix(mix(mix(mix(base, 13), up), x.upos[j1]!), x.upos[j2]!)) & wmask;
  out[13] = finish(mix(mix(mix(mix(base, 14), up), x.upos[j1]!), bucket)) & wmask;
  return OUTER_FEATURES;
}

/**
 * Scores the parts of a sentence's vine representation with a hashed linear model: short arcs
 * (length ≤ b) and root arcs with the first-order arc features (or, with `coarse`, the coarse subset a
 * first-order pruning pass can use), outer arcs (and with `headOuter` the
 * head-side ones) with `outerFeatures`.
 * Only short and root arcs the mask allows, and outer arcs with some token beyond the band on their
 * side, are scored (the others get -Infinity); O(n·b) feature extractions per sentence. Keeps its buffers between sentences.
 */
export class VinePartScorer {
  /** The scores of the last `score` call. */
  readonly scores: VineScores;
  /** Parts whose features were extracted by the last `score` call. */
  scored = 0;
  private readonly buf = new Int32Array(MAX_ARC_FEATURES);
  /**
   * With 16-bit weights, the short and root arcs are scored by the first-order arc scorer (unigram
   * sums cached per token and bin): the same integer sums, so the same scores, at a fraction of the
   * hashing. Float weights (training) sum each arc's features in order, as `arcFeatures` lists them.
   */
  private arcs: ArcScorer | null = null;

  constructor(
    /** Weights (length a power of two): live floats while training, 16-bit integers when parsing. */
    public weights: Float32Array | Int16Array,
    /** Band b. */
    readonly band: number,
    /** Factor applied to sums of `weights`. */
    public scale = 1,
    /** Whether head-side outer arcs are scored too (into `scores.headOuter`). */
    readonly headOuter = false,
    /**
     * Whether short and root arcs are scored with the coarse pair templates of a pruning pass (see
     * `pairFeatures`) instead of the parser's full arc features; outer arcs keep their own features.
     */
    readonly coarse = false,
  ) {
    this.scores = new VineScores(band);
  }

  /** Fills `this.scores` for the sentence `x` under `mask` (null = every arc) and returns them. */
  score(x: FeatureSentence, mask: ArcMask | null): VineScores {
    const n = x.n;
    const b = this.band;
    const W = 2 * b;
    const size = n + 1;
    const sc = this.scores.ensure(n);
    const short = sc.short;
    const root = sc.root;
    const outer = sc.outer;
    const headOuter = sc.headOuter;
    const heads = this.headOuter;
    const bits = mask === null ? null : mask.bits;
    const w = this.weights;
    const wmask = w.length - 1;
    const buf = this.buf;
    const scale = this.scale;
    let arcs: ArcScorer | null = null;
    if (w instanceof Int16Array) {
      if (this.arcs === null || this.arcs.weights !== w || this.arcs.scale !== scale)
        this.arcs = new ArcScorer(w, scale, this.coarse);
      arcs = this.arcs;
      arcs.begin(x, true);
    }
    let scored = 0;
    for (let m = 1; m <= n; m++) {
      const row = m * W;
      for (let slot = 0; slot < W; slot++) {
        const h = vineSlotHead(b, m, slot);
        if (h < 1 || h > n || (bits !== null && bits[h * size + m] === 0)) {
          short[row + slot] = Number.NEGATIVE_INFINITY;
          continue;
        }
        if (arcs !== null) arcs.scoreArcInto(x, h, m, short, row + slot);
        else {
          const k = arcFeatures(x, h, m, buf, wmask, this.coarse);
          let s = 0;
          for (let i = 0; i < k; i++) s += w[buf[i]!]!;
          short[row + slot] = s * scale;
        }
        scored++;
      }
      if (bits !== null && bits[m] === 0) root[m] = Number.NEGATIVE_INFINITY;
      else {
        if (arcs !== null) arcs.scoreArcInto(x, 0, m, root, m);
        else {
          const k = arcFeatures(x, 0, m, buf, wmask, this.coarse);
          let s = 0;
          for (let i = 0; i < k; i++) s += w[buf[i]!]!;
          root[m] = s * scale;
        }
        scored++;
      }
      for (let side = 0; side < 2; side++) {
        // Outer arcs of a side with no token beyond the band stand for nothing: not scored.
        if ((side === 0 ? m - b - 1 : n - m - b) < 1) {
          outer[2 * m + side] = Number.NEGATIVE_INFINITY;
          headOuter[2 * m + side] = Number.NEGATIVE_INFINITY;
          continue;
        }
        const k = outerFeatures(x, m, side, b, buf, wmask);
        let s = 0;
        for (let i = 0; i < k; i++) s += w[buf[i]!]!;
        outer[2 * m + side] = s * scale;
        scored++;
        if (heads) {
          const kh = outerFeatures(x, m, side, b, buf, wmask, 1);
          let sh = 0;
          for (let i = 0; i < kh; i++) sh += w[buf[i]!]!;
          headOuter[2 * m + side] = sh * scale;
          scored++;
        }
      }
    }
    this.scored = scored;
    return sc;
  }
}
