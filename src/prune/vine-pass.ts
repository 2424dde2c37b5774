import { vinePruneMask, vineThreshold } from "../decode/max-marginal-pruning.js";
import { type VineMaxMarginals, VineParser } from "../decode/vine-parser.js";
import { VineparseError } from "../errors.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import { ArcMask } from "../mask/arc-mask.js";
import { int16Weights, type ModelData, type QuantizedWeights } from "../model/model-file.js";
import type { PassFeatures } from "./max-marginal-pass.js";
import { passWeightsFromModel, passWeightsToModel } from "./pass-weights.js";
import type { ArcPruner, PruneInput } from "./pruner.js";
import { VinePartScorer } from "./vine-features.js";

/** Model-file kind of a vine pass. */
export const VINE_KIND = "vine";
/**
 * Version of the vine pass layout: 2 adds `headOuter` (version 1 files load without it); 3 stores the
 * weight table as scored (versions 1 and 2, delta-coded, still load).
 */
export const VINE_VERSION = 3;
/**
 * The layout of a vine pass whose short and root arcs have the coarse features: version 3 plus
 * `features: "coarse"`, under a version of its own so that older readers refuse it instead of scoring
 * it with the full features.
 */
export const VINE_COARSE_VERSION = 4;

/**
 * The first pass of the vine-pruning cascade (Rush & Petrov 2012): a first-order vine parser of band b
 * (Eisner & Smith 2005; `VineParser`) scores short arcs (length ≤ b), root arcs and outer arcs (one per
 * token and side, standing for every longer arc into it; with `headOuter` also one per token and side
 * standing for every longer arc out of it) with its own linear model, computes every
 * part's max-marginal in O(n·b²) and keeps a part iff its max-marginal ≥ t_α = α·best + (1 − α)·mean.
 * A pruned outer arc removes every long arc it stands for; the best vine structure always survives.
 * Only arcs the incoming mask allows are scored or kept.
 */
export class VinePass implements ArcPruner {
  /** Always "vine". */
  readonly kind = VINE_KIND;
  /** The part scorer (its `scored` counts the parts of the last `prune`). */
  readonly scorer: VinePartScorer;
  private readonly parser: VineParser;
  /** Output masks of `vinePruneMask`, one per sentence length seen. */
  private readonly scratch = new Map<number, ArcMask>();

  constructor(
    /** 16-bit weights of short, root and outer parts, with their scale. */
    readonly weights: QuantizedWeights,
    /** Band b ≥ 1. */
    readonly band: number,
    /** α of the threshold, in [−1, 1] (Rush & Petrov: [0, 1]; below 0 the threshold lies under the mean): larger prunes more. */
    public alpha: number,
    /** Whether long arcs also need the head-side outer arc of their head (see `VineParser`). */
    readonly headOuter = false,
    /** Short and root arcs: the parser's arc features or the coarse subset (`pairFeatures`). */
    readonly features: PassFeatures = "full",
  ) {
    this.parser = new VineParser({ band, headOuter });
    this.scorer = new VinePartScorer(weights.weights, band, weights.scale, headOuter, features === "coarse");
  }

  /** A pass over float weights (quantized to 16 bits here). */
  static fromFloats(
    w: Float32Array,
    band: number,
    alpha: number,
    headOuter = false,
    features: PassFeatures = "full",
  ): VinePass {
    return new VinePass(int16Weights(w), band, alpha, headOuter, features);
  }

  /** Removes the arcs of the parts whose max-marginal falls below t_α, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    this.pruneAtoms(input.atoms, mask);
  }

  /** Same as `prune`, given the sentence's feature atoms. */
  pruneAtoms(x: FeatureSentence, mask: ArcMask): void {
    if (x.n <= 1) return;
    const mm = this.maxMarginals(x, mask);
    this.applyThreshold(mm, vineThreshold(mm, this.alpha), mask);
  }

  /** Max-marginals of every vine part of `x` under `mask` (views of reused buffers). */
  maxMarginals(x: FeatureSentence, mask: ArcMask | null): VineMaxMarginals {
    const scores = this.scorer.score(x, mask);
    return this.parser.maxMarginals(x.n, scores, mask);
  }

  /** Clears from `mask` the arcs whose part's max-marginal falls below `threshold`. */
  applyThreshold(mm: VineMaxMarginals, threshold: number, mask: ArcMask): void {
    const n = mask.n;
    let out = this.scratch.get(n);
    if (out === undefined) {
      out = ArcMask.empty(n);
      this.scratch.set(n, out);
    }
    vinePruneMask(mm, threshold, mask, out);
    mask.bits.set(out.bits.subarray(0, (n + 1) * (n + 1)));
  }

  /** The pass as model-file content (kind "vine", version, band, α, weights). */
  toModelData(): ModelData {
    const w = passWeightsToModel(this.weights);
    return {
      kind: VINE_KIND,
      meta: {
        ...(this.features === "coarse"
          ? { version: VINE_COARSE_VERSION, features: "coarse" }
          : { version: VINE_VERSION }),
        band: this.band,
        alpha: this.alpha,
        headOuter: this.headOuter,
        ...w.meta,
      },
      arrays: w.arrays,
    };
  }

  /** One line: band, α and the model size. */
  describe(): string {
    let nz = 0;
    for (const v of this.weights.weights) if (v !== 0) nz++;
    const outer = this.headOuter ? "outer arcs at both ends of longer ones" : "outer arcs for longer ones";
    const coarse = this.features === "coarse" ? ", coarse arc features" : "";
    return `vine pass (band ${this.band}, ${outer}${coarse}), max-marginal threshold α = ${this.alpha}; ${nz} non-zero weights of 2^${Math.log2(this.weights.weights.length)}\n`;
  }

  /** Loads a pass written by `toModelData`; one-line errors for bad files. */
  static fromModelData(m: ModelData, file: string): VinePass {
    const meta = m.meta as {
      version?: unknown;
      band?: unknown;
      alpha?: unknown;
      headOuter?: unknown;
      features?: unknown;
      size?: unknown;
      scale?: unknown;
    };
    if (
      meta.version !== 1 &&
      meta.version !== 2 &&
      meta.version !== VINE_VERSION &&
      meta.version !== VINE_COARSE_VERSION
    )
      throw new VineparseError(
        "model-version",
        `vine pass version ${String(meta.version)} is not supported`,
        file,
      );
    const band = meta.band;
    const alpha = meta.alpha;
    if (typeof band !== "number" || !Number.isInteger(band) || band < 1 || band > 64)
      throw new VineparseError("model-corrupt", "corrupted model: vine pass has a bad band", file);
    if (typeof alpha !== "number" || !(alpha >= -1 && alpha <= 1))
      throw new VineparseError("model-corrupt", "corrupted model: vine pass has a bad alpha", file);
    const headOuter = meta.version === 1 ? false : meta.headOuter;
    if (typeof headOuter !== "boolean")
      throw new VineparseError("model-corrupt", "corrupted model: vine pass has a bad headOuter", file);
    const coarse = meta.version === VINE_COARSE_VERSION;
    if (coarse && meta.features !== "coarse")
      throw new VineparseError("model-corrupt", "corrupted model: vine pass has bad features", file);
    const asScored = meta.version === VINE_VERSION || coarse;
    const weights = passWeightsFromModel(meta, m.arrays, asScored, file, "vine pass");
    return new VinePass(weights, band, alpha, headOuter, coarse ? "coarse" : "full");
  }
}
