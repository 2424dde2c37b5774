import { EisnerMaxMarginals } from "../decode/eisner-max-marginals.js";
import { VineparseError } from "../errors.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import { ArcMask } from "../mask/arc-mask.js";
import {
  int16FromPacked,
  int16Weights,
  type ModelData,
  packInt16,
  type QuantizedWeights,
} from "../model/model-file.js";
import { ArcScorer } from "../parser/arc-scorer.js";
import type { ArcPruner, PruneInput } from "./pruner.js";

/** Model-file kind of a first-order top-k pass. */
export const TOPK_KIND = "topk";
/** Version of the top-k pass layout: 2 adds `above` (written only when set; version 1 = always prune). */
export const TOPK_VERSION = 2;

/** How a `TopKPruner` ranks the heads of a token: by arc score, or by max-marginal (best tree through the arc). */
export type PruneRank = "score" | "max-marginal";

/**
 * Where a top-k pass's first-order weights live: in its own file ("own"), or in the first-order model
 * of the parser whose cascade holds it ("parser"; stored without weights, bound again when loaded).
 */
export type TopKWeightSource = "own" | "parser";

/**
 * First-order pruning for higher-order parsing (Koo & Collins 2010; the FirstOnly baseline of Rush &
 * Petrov 2012): a first-order arc model scores every arc the incoming mask allows, and each token keeps
 * only its `k` best heads, and of those only the ones within `margin` of its best head. Heads are ranked
 * by arc score or by projective max-marginal (the score of the best tree containing the arc), which
 * accounts for the rest of the tree. With `above` > 0 the pass is a guard for a parser's worst case: it
 * acts only on a sentence whose mask keeps more than `above` heads per token on average (such as a long
 * run of one repeated word, whose arcs earlier passes cannot tell apart), and leaves the others as
 * they are.
 */
export class TopKPruner implements ArcPruner {
  /** Always "topk". */
  readonly kind = TOPK_KIND;
  /** The first-order scorer (its `scored` counts the arcs of the last `prune`). */
  readonly scorer: ArcScorer;
  private readonly topScore: Float64Array;
  private readonly topHead: Int32Array;
  private readonly marginals = new EisnerMaxMarginals();
  private mm = new Float64Array(0);
  private readonly quantized: QuantizedWeights;

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
    /** Whether the weights are saved with the pass or belong to the enclosing parser. */
    readonly source: TopKWeightSource = "own",
    /** Acts only when the mask keeps more than this many heads per token on average (0: always). */
    readonly above = 0,
  ) {
    if (!(k >= 1)) throw new RangeError(`TopKPruner: k must be ≥ 1 (got ${k})`);
    if (!(above >= 0)) throw new RangeError(`TopKPruner: above must be ≥ 0 (got ${above})`);
    this.quantized = weights instanceof Float32Array ? int16Weights(weights) : weights;
    this.scorer = new ArcScorer(this.quantized.weights, this.quantized.scale);
    this.topScore = new Float64Array(k);
    this.topHead = new Int32Array(k);
  }

  /** Keeps each token's k best heads among those `mask` allows, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    this.pruneAtoms(input.atoms, mask);
  }

  /** A new mask: each token's k best heads among those `mask` allows (every arc when null). */
  maskOf(x: FeatureSentence, mask: ArcMask | null): ArcMask {
    const out = mask === null ? ArcMask.full(x.n) : mask.clone();
    this.pruneAtoms(x, out);
    return out;
  }

  /** Same as `prune`, given the sentence's feature atoms directly. */
  pruneAtoms(x: FeatureSentence, mask: ArcMask): void {
    const n = x.n;
    const size = n + 1;
    if (this.above > 0 && mask.count() <= this.above * n) return;
    let scores = this.scorer.scoreAll(x, mask);
    if (this.rank === "max-marginal") {
      if (this.mm.length < size * size) this.mm = new Float64Array(size * size * 2);
      // When the mask admits no tree every marginal is -Infinity: rank by arc score instead.
      if (this.marginals.compute(n, scores, mask, this.mm).best > Number.NEGATIVE_INFINITY) scores = this.mm;
    }
    const bits = mask.bits;
    const k = this.k;
    const ts = this.topScore;
    const th = this.topHead;
    for (let m = 1; m <= n; m++) {
      let len = 0;
      for (let h = 0; h <= n; h++) {
        const v = scores[h * size + m]!;
        if (h === m || v === Number.NEGATIVE_INFINITY || bits[h * size + m] === 0) continue;
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
      for (let h = 0; h <= n; h++) bits[h * size + m] = 0;
      const floor = len > 0 ? ts[0]! - this.margin : 0;
      for (let i = 0; i < len; i++) if (ts[i]! >= floor) bits[th[i]! * size + m] = 1;
    }
  }

  /** The pass as model-file content; weights are included only when the pass owns them. */
  toModelData(): ModelData {
    const meta: Record<string, unknown> = {
      version: this.above > 0 ? TOPK_VERSION : 1,
      k: this.k,
      margin: Number.isFinite(this.margin) ? this.margin : null,
      rank: this.rank,
      weights: this.source,
      size: this.quantized.weights.length,
    };
    if (this.above > 0) meta.above = this.above;
    if (this.source === "parser") return { kind: TOPK_KIND, meta, arrays: {} };
    const p = packInt16(this.quantized);
    meta.scale = p.scale;
    return { kind: TOPK_KIND, meta, arrays: { delta: p.delta, value: p.value } };
  }

  /** One line: k, margin, ranking and where the weights come from. */
  describe(): string {
    const margin = Number.isFinite(this.margin) ? `, margin ${this.margin}` : "";
    const from =
      this.source === "parser"
        ? "the parser's first-order model"
        : `its own first-order model (2^${Math.log2(this.quantized.weights.length)} weights)`;
    const when =
      this.above > 0
        ? ` (only in sentences whose mask keeps more than ${this.above} heads per token on average)`
        : "";
    return `each token keeps its ${this.k} best heads by ${this.rank}${margin}, scored by ${from}${when}\n`;
  }

  /**
   * Loads a pass written by `toModelData`; a pass stored without weights binds to `parserWeights`
   * (the first-order weights of the parser whose cascade holds it).
   */
  static fromModelData(m: ModelData, file: string, parserWeights?: QuantizedWeights): TopKPruner {
    const meta = m.meta as {
      version?: number;
      k?: number;
      margin?: number | null;
      rank?: string;
      weights?: string;
      size?: number;
      scale?: number;
      above?: number;
    };
    if (meta.version !== 1 && meta.version !== TOPK_VERSION)
      throw new VineparseError("model-version", `top-k pass version ${meta.version} is not supported`, file);
    const k = meta.k;
    if (typeof k !== "number" || !(k >= 1) || (meta.rank !== "score" && meta.rank !== "max-marginal"))
      throw new VineparseError("model-corrupt", "corrupted model: top-k pass has a bad k or rank", file);
    const margin = typeof meta.margin === "number" ? meta.margin : Number.POSITIVE_INFINITY;
    const above = meta.version === 1 ? 0 : meta.above;
    if (typeof above !== "number" || !(above >= 0))
      throw new VineparseError("model-corrupt", "corrupted model: top-k pass has a bad above", file);
    if (meta.weights === "parser") {
      if (parserWeights === undefined)
        throw new VineparseError(
          "model-kind",
          "this top-k pass uses a parser's first-order model: load it with that parser",
          file,
        );
      return new TopKPruner(parserWeights, k, margin, meta.rank, "parser", above);
    }
    const { delta, value } = m.arrays;
    const size = meta.size;
    if (
      !(delta instanceof Uint32Array) ||
      !(value instanceof Int16Array) ||
      typeof size !== "number" ||
      !(size > 0 && (size & (size - 1)) === 0) ||
      typeof meta.scale !== "number"
    )
      throw new VineparseError("model-corrupt", "corrupted model: top-k pass lacks its weights", file);
    let q: QuantizedWeights;
    try {
      q = int16FromPacked({ delta, value, scale: meta.scale }, size);
    } catch (e) {
      throw new VineparseError(
        "model-corrupt",
        `corrupted model: top-k weights: ${(e as Error).message}`,
        file,
      );
    }
    return new TopKPruner(q, k, margin, meta.rank, "own", above);
  }
}
