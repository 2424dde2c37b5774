import { EisnerMaxMarginals } from "../decode/eisner-max-marginals.js";
import { alphaThreshold } from "../decode/max-marginal-pruning.js";
import { SiblingMaxMarginals } from "../decode/sibling-max-marginals.js";
import { VineparseError } from "../errors.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { int16Weights, type ModelData, type QuantizedWeights } from "../model/model-file.js";
import { ArcScorer } from "../parser/arc-scorer.js";
import { HigherOrderScorer } from "../parser/higher-order-scorer.js";
import { passWeightsFromModel, passWeightsToModel } from "./pass-weights.js";
import type { ArcPruner, PruneInput } from "./pruner.js";

/** Model-file kind of a first- or second-order max-marginal pass. */
export const MAX_MARGINAL_KIND = "maxmarginal";
/** Version of the max-marginal pass layout: 2 stores the weight table as scored (version 1 files, delta-coded, still load). */
export const MAX_MARGINAL_VERSION = 2;
/**
 * The layout of a first-order pass with coarse features: version 2 plus `features: "coarse"`, under a
 * version of its own so that older readers refuse it instead of scoring it with the full features.
 */
export const MAX_MARGINAL_COARSE_VERSION = 3;

/** Feature set of a first-order max-marginal pass: the parser's (`full`) or the coarse pruning subset. */
export type PassFeatures = "full" | "coarse";

const NEG = Number.NEGATIVE_INFINITY;

/** Max-marginals of one sentence's allowed arcs, as a max-marginal pass computes them. */
export interface ArcMaxMarginals {
  /** Number of tokens. */
  n: number;
  /** marginals[h · (n + 1) + m]; -Infinity for pruned arcs or arcs in no tree (a reused buffer). */
  marginals: Float64Array;
  /** Best tree score; -Infinity when the mask admits no projective tree. */
  best: number;
  /** Mean of the finite max-marginals (= best when there are none). */
  mean: number;
  /** Number of finite max-marginals. */
  arcs: number;
  /**
   * When given, the cells the incoming mask allowed (increasing, valid up to `cellCount`): every finite
   * max-marginal lies there, so thresholding visits only them. A reused buffer.
   */
  cells?: Int32Array;
  cellCount?: number;
}

/**
 * A max-marginal pass of the vine-pruning cascade (Rush & Petrov 2012): a first-order (arc) or
 * second-order (arc + sibling) projective model with its own weights scores only the arcs and parts the
 * incoming mask allows, computes every arc's max-marginal (best tree containing it) by inside–outside
 * over the sparse chart, and keeps an arc iff its max-marginal ≥ t_α = α·best + (1 − α)·mean. The best
 * tree always survives; a mask admitting no projective tree is left unchanged.
 */
export class MaxMarginalPass implements ArcPruner {
  /** Always "maxmarginal". */
  readonly kind = MAX_MARGINAL_KIND;
  private readonly arcScorer: ArcScorer | null;
  private readonly sibScorer: HigherOrderScorer | null;
  private readonly first: EisnerMaxMarginals | null;
  private readonly second: SiblingMaxMarginals | null;
  private buf = new Float64Array(0);
  /** Arcs and parts scored by the last `prune`. */
  scored = 0;

  constructor(
    /** 1 (arc-factored) or 2 (sibling parts). */
    readonly order: 1 | 2,
    /** 16-bit weights and their scale (first-order features; sibling features too for order 2). */
    readonly weights: QuantizedWeights,
    /** α of the threshold, in [−1, 1] (Rush & Petrov: [0, 1]; below 0 the threshold lies under the mean): larger prunes more. */
    public alpha: number,
    /** First order: the parser's arc features or the coarse subset (`pairFeatures`). */
    readonly features: PassFeatures = "full",
  ) {
    if (order === 2 && features !== "full")
      throw new VineparseError("usage", "coarse features are for a first-order max-marginal pass");
    if (order === 1) {
      this.arcScorer = new ArcScorer(weights.weights, weights.scale, features === "coarse");
      // A forced arc's score moves every max-marginal and t_α alike (see `ArcScorer.skipForced`).
      this.arcScorer.skipForced = true;
      this.first = new EisnerMaxMarginals();
      this.sibScorer = null;
      this.second = null;
    } else {
      this.sibScorer = new HigherOrderScorer(weights.weights, weights.scale);
      this.sibScorer.skipForced = true;
      this.second = new SiblingMaxMarginals();
      this.arcScorer = null;
      this.first = null;
    }
  }

  /** A pass over float weights (quantized to 16 bits here). */
  static fromFloats(
    order: 1 | 2,
    w: Float32Array,
    alpha: number,
    features: PassFeatures = "full",
  ): MaxMarginalPass {
    return new MaxMarginalPass(order, int16Weights(w), alpha, features);
  }

  /**
   * Whether the pass leaves each modifier's only allowed head without first-order features (on by
   * default; see `ArcScorer.skipForced`): every max-marginal and t_α move by the same constant.
   */
  get skipForced(): boolean {
    return (this.arcScorer ?? this.sibScorer!).skipForced;
  }

  set skipForced(on: boolean) {
    if (this.arcScorer !== null) this.arcScorer.skipForced = on;
    else this.sibScorer!.skipForced = on;
  }

  /** Keeps the arcs whose max-marginal reaches t_α, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    this.pruneAtoms(input.atoms, mask);
  }

  /** Same as `prune`, given the sentence's feature atoms. */
  pruneAtoms(x: FeatureSentence, mask: ArcMask): void {
    if (x.n <= 1) return;
    const mm = this.maxMarginals(x, mask);
    if (!(mm.best > NEG)) return;
    applyArcThreshold(mm, alphaThreshold(mm.best, mm.mean, this.alpha), mask);
  }

  /** Max-marginals of every arc of `x` that `mask` allows (a reused buffer). */
  maxMarginals(x: FeatureSentence, mask: ArcMask): ArcMaxMarginals {
    const n = x.n;
    const cells = (n + 1) * (n + 1);
    if (this.buf.length < cells) this.buf = new Float64Array(Math.max(cells, this.buf.length * 2));
    if (this.first !== null) {
      const scores = this.arcScorer!.scoreAll(x, mask);
      const first = this.first;
      const r = first.compute(n, scores, mask, this.buf);
      this.scored = this.arcScorer!.scored;
      // Finite max-marginals lie only in the cells the mask allowed: visit those (in increasing order,
      // as a scan of every cell would, so the sum is the same).
      const count = first.allowedCount;
      const list = count >= 0 ? first.allowedCells : undefined;
      const marg = r.marginals;
      let arcs = 0;
      let sum = 0;
      if (list !== undefined) {
        for (let j = 0; j < count; j++) {
          const v = marg[list[j]!]!;
          if (v > NEG) {
            arcs++;
            sum += v;
          }
        }
      } else
        for (let i = 0; i < cells; i++) {
          const v = marg[i]!;
          if (v > NEG) {
            arcs++;
            sum += v;
          }
        }
      const mean = arcs > 0 ? sum / arcs : r.best;
      return { n, marginals: marg, best: r.best, arcs, mean, cells: list, cellCount: count };
    }
    const sc = this.sibScorer!;
    sc.prepare(x, mask);
    const r = this.second!.compute(mask, sc, this.buf);
    this.scored = sc.arcsScored + r.partsScored;
    return {
      n,
      marginals: r.marginals,
      best: r.best,
      arcs: r.arcs,
      mean: r.arcs > 0 ? r.sum / r.arcs : r.best,
    };
  }

  /** The pass as model-file content (kind "maxmarginal", version, order, α, weights). */
  toModelData(): ModelData {
    const w = passWeightsToModel(this.weights);
    return {
      kind: MAX_MARGINAL_KIND,
      meta: {
        ...(this.features === "coarse"
          ? { version: MAX_MARGINAL_COARSE_VERSION, features: "coarse" }
          : { version: MAX_MARGINAL_VERSION }),
        order: this.order,
        alpha: this.alpha,
        ...w.meta,
      },
      arrays: w.arrays,
    };
  }

  /** One line: order, α and the model size. */
  describe(): string {
    let nz = 0;
    for (const v of this.weights.weights) if (v !== 0) nz++;
    const what =
      this.order === 1
        ? `first-order${this.features === "coarse" ? " (coarse features)" : ""}`
        : "second-order (sibling)";
    return `${what} max-marginal pass, threshold α = ${this.alpha}; ${nz} non-zero weights of 2^${Math.log2(this.weights.weights.length)}\n`;
  }

  /** Loads a pass written by `toModelData`; one-line errors for bad files. */
  static fromModelData(m: ModelData, file: string): MaxMarginalPass {
    const meta = m.meta as {
      version?: unknown;
      order?: unknown;
      alpha?: unknown;
      size?: unknown;
      scale?: unknown;
      features?: unknown;
    };
    if (
      meta.version !== 1 &&
      meta.version !== MAX_MARGINAL_VERSION &&
      meta.version !== MAX_MARGINAL_COARSE_VERSION
    )
      throw new VineparseError(
        "model-version",
        `max-marginal pass version ${String(meta.version)} is not supported`,
        file,
      );
    if (meta.order !== 1 && meta.order !== 2)
      throw new VineparseError("model-corrupt", "corrupted model: max-marginal pass has a bad order", file);
    const alpha = meta.alpha;
    if (typeof alpha !== "number" || !(alpha >= -1 && alpha <= 1))
      throw new VineparseError("model-corrupt", "corrupted model: max-marginal pass has a bad alpha", file);
    const coarse = meta.version === MAX_MARGINAL_COARSE_VERSION;
    if (coarse && (meta.features !== "coarse" || meta.order !== 1))
      throw new VineparseError("model-corrupt", "corrupted model: max-marginal pass has bad features", file);
    return new MaxMarginalPass(
      meta.order,
      passWeightsFromModel(meta, m.arrays, meta.version !== 1, file, "max-marginal pass"),
      alpha,
      coarse ? "coarse" : "full",
    );
  }
}

/**
 * Clears from `mask` every arc whose max-marginal falls below `threshold` (arcs within a relative 1e-9
 * of it are kept, so rounding in inside + outside never drops an arc of the best tree).
 */
export function applyArcThreshold(mm: ArcMaxMarginals, threshold: number, mask: ArcMask): void {
  const n = mm.n;
  const size = n + 1;
  const t = threshold - 1e-9 * (1 + Math.abs(threshold));
  const bits = mask.bits;
  const marg = mm.marginals;
  const list = mm.cells;
  if (list !== undefined) {
    for (let j = 0, end = mm.cellCount!; j < end; j++) {
      const a = list[j]!;
      if (a % size !== 0 && bits[a] === 1 && !(marg[a]! >= t)) bits[a] = 0;
    }
    return;
  }
  for (let h = 0; h <= n; h++) {
    const row = h * size;
    for (let m = 1; m <= n; m++) {
      const a = row + m;
      if (bits[a] === 1 && !(marg[a]! >= t)) bits[a] = 0;
    }
  }
}
