import { VineparseError } from "../errors.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData } from "../model/model-file.js";
import {
  ArcFilterFeatures,
  coarseWeightCount,
  DEFAULT_DIST_SCALE,
  MAX_COARSE_TAGS,
} from "./arc-filter-features.js";
import { ArcMlp } from "./arc-mlp.js";
import { int16TableFromModel } from "./pass-weights.js";
import type { ArcPruner, PruneInput } from "./pruner.js";
import { TagMap, type TagColumn } from "./tag-map.js";

/** Model-file kind of the quadratic arc filter. */
export const QUADRATIC_KIND = "quadratic";
/**
 * Version of its layout (4: an optional arc network beside the linear weights; 3: the weight table
 * as scored; 2 added the coarse tags, with non-zero weights delta-coded as in 1; version 1 files load
 * as Table 3 filters).
 */
export const QUADRATIC_VERSION = 4;

/** What training recorded about the quadratic filter (for `filter show`; not needed to prune). */
export interface QuadraticInfo {
  /** Costs of the non-arc and true-arc classes of the chosen SVM. */
  c1?: number;
  c2?: number;
  /** Dev coverage and reduction (%) of the whole cascade at the chosen operating point. */
  coverage?: number;
  reduction?: number;
  /** The most important features: name and weight, strongest for filtering first. */
  top?: [string, number][];
  /**
   * With an arc network: the weight's factor λ (of the ratio of the two scores' spreads on dev), and
   * the linear part's dev reduction (%) alone at the same coverage.
   */
  networkLambda?: number;
  linearReduction?: number;
  /** The two-fold check of tuning the network's weight on dev (arcs removed, gold arcs lost on held-out halves). */
  twoFold?: { network: { removed: number; lost: number }; linear: { removed: number; lost: number } };
}

/** The quadratic filter's optional non-linear term: an arc network and the weight of its output. */
export interface ArcNetworkTerm {
  net: ArcMlp;
  /** Factor of the network's output in the arc score. */
  weight: number;
}

/**
 * The quadratic-time arc filter of Bergsma & Cherry (2010, §4.4): one linear classifier scores every
 * arc the incoming mask still allows (Table 3 features, O(1) per arc; with a coarse tag map also the
 * coarse templates, O(coarse tags) per arc) and removes the arcs scoring above its threshold.
 * Weights are 16-bit integers with one scale. Beyond the paper, the score may add a small arc
 * network's output (`ArcMlp`, O(hidden units) per arc), times a weight chosen on dev. Not reentrant.
 */
export class QuadraticFilter implements ArcPruner {
  /** Always "quadratic". */
  readonly kind = QUADRATIC_KIND;
  /** The feature extractor. */
  readonly features: ArcFilterFeatures;
  /** Arcs scored by the last `prune` (the arcs that reached this pass). */
  scored = 0;
  /** The network's outputs of the current sentence's arcs (grown as needed). */
  private netOut = new Float64Array(0);
  /** The linear scores of the current sentence's arcs, at h · size + m (grown as needed). */
  private linOut = new Float64Array(0);

  constructor(
    /** The filter's tag map. */
    readonly tagMap: TagMap,
    /** log2 of the number of hashed feature slots. */
    readonly bits: number,
    /** Weights in units of `scale`. */
    readonly weights: Int16Array,
    /** Factor turning weighted sums into scores. */
    readonly scale: number,
    /** An arc is removed when its score exceeds this (+∞: the pass removes nothing). */
    readonly threshold: number,
    /** Divisor of the distance features. */
    readonly distScale = DEFAULT_DIST_SCALE,
    /** Training records (costs, dev scores, top features). */
    readonly info: QuadraticInfo = {},
    /** Coarse tags (UPOS) of the coarse templates; null: the Table 3 features only. */
    readonly coarseMap: TagMap | null = null,
    /** The arc network's term, or null (the linear classifier alone, as in the paper). */
    readonly network: ArcNetworkTerm | null = null,
  ) {
    this.features = new ArcFilterFeatures(tagMap, bits, distScale, coarseMap);
    if (weights.length !== this.features.dim)
      throw new RangeError(
        `QuadraticFilter: ${weights.length} weights for 2^${bits} slots and ${this.features.dim - (1 << bits)} coarse ones`,
      );
  }

  /** The same weights with another threshold. */
  withThreshold(
    threshold: number,
    info: QuadraticInfo = this.info,
    network: ArcNetworkTerm | null = this.network,
  ): QuadraticFilter {
    return new QuadraticFilter(
      this.tagMap,
      this.bits,
      this.weights,
      this.scale,
      threshold,
      this.distScale,
      info,
      this.coarseMap,
      network,
    );
  }

  /** Linear score of arc h→m of the last prepared sentence (higher: more surely not an arc). */
  score(h: number, m: number): number {
    return this.features.scoreArc(h, m, this.weights) * this.scale;
  }

  /**
   * Calls `visit(h, m, linear, network)` for every arc `mask` allows in `input`'s sentence: the
   * linear score and the network's output (0 without a network), unweighted; the filter's score is
   * linear + weight · network (for tuning thresholds; the callback must not change the mask).
   */
  scoreArcs(
    input: PruneInput,
    mask: ArcMask,
    visit: (h: number, m: number, linear: number, network: number) => void,
  ): void {
    this.features.prepare(input);
    const n = mask.n;
    const size = mask.size;
    const bits = mask.bits;
    const lin = this.linearScores(mask);
    const z = this.networkOutputs(input, mask);
    const q = this.scale;
    let k = 0;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      for (let m = 1; m <= n; m++)
        if (bits[row + m] === 1) visit(h, m, lin[row + m]! * q, z === null ? 0 : z[k++]!);
    }
  }

  /** Every allowed arc's linear score in weight units, at h · size + m (`ArcFilterFeatures.scoreMasked`). */
  private linearScores(mask: ArcMask): Float64Array {
    const size = mask.size;
    if (this.linOut.length < size * size) this.linOut = new Float64Array(size * size * 2);
    this.features.scoreMasked(mask.bits, size, this.weights, this.linOut);
    return this.linOut;
  }

  /** The network's output for every arc `mask` allows, in row-major order (null without a network). */
  private networkOutputs(input: PruneInput, mask: ArcMask): Float64Array | null {
    if (this.network === null) return null;
    const net = this.network.net;
    net.prepare(input.sentence, input.vocab, false);
    const size = mask.size;
    if (this.netOut.length < size * size) this.netOut = new Float64Array(size * size * 2);
    net.scoreMasked(mask.bits, size, this.netOut);
    return this.netOut;
  }

  /** Removes every allowed arc whose score exceeds the threshold, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    this.features.prepare(input);
    const n = mask.n;
    const size = mask.size;
    const bits = mask.bits;
    const thr = this.threshold;
    const q = this.scale;
    const lin = this.linearScores(mask);
    let scored = 0;
    const term = this.network;
    if (term === null) {
      for (let h = 0; h <= n; h++) {
        const row = h * size;
        for (let m = 1; m <= n; m++) {
          if (bits[row + m] === 0) continue;
          scored++;
          if (lin[row + m]! * q > thr) bits[row + m] = 0;
        }
      }
    } else {
      const mu = term.weight;
      const z = this.networkOutputs(input, mask)!;
      // The network's outputs come in the order of this loop.
      for (let h = 0; h <= n; h++) {
        const row = h * size;
        for (let m = 1; m <= n; m++) {
          if (bits[row + m] === 0) continue;
          if (lin[row + m]! * q + mu * z[scored++]! > thr) bits[row + m] = 0;
        }
      }
    }
    this.scored = scored;
  }

  /**
   * The filter as model-file content: its 16-bit weights, hashed then coarse, as the table it scores
   * with (the file format stores runs of zeros compactly and inflates the table in place, so loading
   * copies nothing; versions 1 and 2 stored the non-zero entries delta-coded).
   */
  toModelData(): ModelData {
    const arrays: ModelData["arrays"] = { weights: this.weights };
    let network: Record<string, unknown> | null = null;
    if (this.network !== null) {
      const parts = this.network.net.toParts();
      network = { ...parts.meta, weight: this.network.weight };
      Object.assign(arrays, parts.arrays);
    }
    return {
      kind: QUADRATIC_KIND,
      meta: {
        version: QUADRATIC_VERSION,
        bits: this.bits,
        column: this.tagMap.column,
        tags: this.tagMap.tags,
        scale: this.scale,
        threshold: Number.isFinite(this.threshold) ? this.threshold : null,
        distScale: this.distScale,
        coarse: this.coarseMap === null ? null : { column: this.coarseMap.column, tags: this.coarseMap.tags },
        network,
        ...this.info,
      },
      arrays,
    };
  }

  /** Operating point and the most important features. */
  describe(): string {
    const inf = this.info;
    const t = this.threshold;
    const lines = [
      `quadratic arc filter (Bergsma & Cherry 2010, §4.4): 2^${this.bits} hashed feature slots, ` +
        `${this.tagMap.column.toUpperCase()} tags (${this.tagMap.tags.length})` +
        (this.coarseMap === null
          ? " (Table 3 features)"
          : ` and coarse ${this.coarseMap.column.toUpperCase()} tags (${this.coarseMap.tags.length})`) +
        `, distances divided by ${this.distScale}`,
      `removes an arc when its score > ${Number.isFinite(t) ? t.toPrecision(4) : "∞ (never)"}` +
        (inf.c1 !== undefined ? `; C1 ${inf.c1} C2 ${inf.c2}` : "") +
        (inf.coverage !== undefined ? `; dev: coverage ${inf.coverage}%, reduction ${inf.reduction}%` : ""),
    ];
    const term = this.network;
    if (term !== null) {
      const net = term.net;
      lines.push(
        `score = linear score + ${term.weight.toPrecision(4)} × an arc network's output (beyond the paper): ` +
          `${net.hidden} rectified hidden units over tag, coarse tag, neighbour tag and word embeddings of ` +
          `head and modifier, length and the coarse tags between (${net.words.length} words)` +
          (inf.linearReduction !== undefined
            ? `; dev reduction of the linear score alone at the same coverage: ${inf.linearReduction}%`
            : ""),
      );
      const c = inf.twoFold;
      if (c !== undefined)
        lines.push(
          `two-fold check on dev (weight and threshold chosen on half the sentences, applied to the other half): ` +
            `${c.network.removed} arcs removed, ${c.network.lost} gold arcs lost; the linear score alone: ` +
            `${c.linear.removed} and ${c.linear.lost}`,
        );
    }
    if (inf.top !== undefined && inf.top.length > 0) {
      lines.push("strongest features (positive: evidence against the arc):");
      for (const [name, weight] of inf.top) lines.push(`    ${weight.toFixed(3).padStart(8)}  ${name}`);
    }
    return lines.join("\n") + "\n";
  }

  /** Loads a filter written by `toModelData`, with one clear error for a malformed file. */
  static fromModelData(m: ModelData, file: string): QuadraticFilter {
    const meta = m.meta as {
      version?: number;
      bits?: number;
      column?: string;
      tags?: unknown;
      scale?: number;
      threshold?: number | null;
      distScale?: number;
      coarse?: { column?: unknown; tags?: unknown } | null;
      network?: ({ weight?: unknown } & Record<string, unknown>) | null;
    } & QuadraticInfo;
    if (meta.version !== QUADRATIC_VERSION && meta.version !== 1 && meta.version !== 2 && meta.version !== 3)
      throw new VineparseError(
        "model-version",
        `quadratic filter version ${meta.version} is not supported`,
        file,
      );
    const bad = (what: string) =>
      new VineparseError("model-corrupt", `corrupted model: quadratic filter ${what}`, file);
    const bits = meta.bits;
    if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 4 || bits > 28)
      throw bad("has a bad weight-table size");
    if (meta.column !== "upos" && meta.column !== "xpos") throw bad("has a bad tag column");
    if (!Array.isArray(meta.tags) || !meta.tags.every((t) => typeof t === "string"))
      throw bad("has a bad tag list");
    if (typeof meta.scale !== "number" || !(meta.scale > 0)) throw bad("has a bad scale");
    if (meta.threshold !== null && typeof meta.threshold !== "number") throw bad("has a bad threshold");
    if (typeof meta.distScale !== "number" || !(meta.distScale > 0)) throw bad("has a bad distance scale");
    const coarse = meta.version === 1 ? null : meta.coarse;
    if (
      coarse === undefined ||
      (coarse !== null &&
        ((coarse.column !== "upos" && coarse.column !== "xpos") ||
          !Array.isArray(coarse.tags) ||
          !coarse.tags.every((t) => typeof t === "string") ||
          coarse.tags.length + 2 > MAX_COARSE_TAGS))
    )
      throw bad("has a bad coarse tag list");
    const coarseMap =
      coarse === null ? null : new TagMap(coarse.tags as string[], coarse.column as TagColumn);
    const size = (1 << bits) + coarseWeightCount(coarseMap);
    const weights = int16TableFromModel(m.arrays, size, meta.version >= 3, bad);
    const tagMap = new TagMap(meta.tags as string[], meta.column as TagColumn);
    let network: ArcNetworkTerm | null = null;
    if (meta.version === QUADRATIC_VERSION && meta.network !== undefined && meta.network !== null) {
      const weight = meta.network.weight;
      if (typeof weight !== "number" || !Number.isFinite(weight)) throw bad("has a bad network weight");
      const net = ArcMlp.fromParts(meta.network, m.arrays, tagMap, coarseMap ?? tagMap, (what) =>
        bad(`network ${what}`),
      );
      network = { net, weight };
    }
    const { c1, c2, coverage, reduction, top, networkLambda, linearReduction } = meta;
    const counts = (x: unknown) =>
      typeof x === "object" &&
      x !== null &&
      typeof (x as { removed?: unknown }).removed === "number" &&
      typeof (x as { lost?: unknown }).lost === "number";
    const twoFold =
      meta.twoFold !== undefined && counts(meta.twoFold.network) && counts(meta.twoFold.linear)
        ? meta.twoFold
        : undefined;
    return new QuadraticFilter(
      tagMap,
      bits,
      weights,
      meta.scale,
      meta.threshold === null ? Number.POSITIVE_INFINITY : meta.threshold,
      meta.distScale,
      { c1, c2, coverage, reduction, top, networkLambda, linearReduction, twoFold },
      coarseMap,
      network,
    );
  }
}
