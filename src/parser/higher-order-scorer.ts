import type { GrandSiblingScorer } from "../decode/parts-types.js";
import type { FeatureSentence } from "../features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../features/first-order.js";
import {
  GRAND_FEATURES,
  GRAND_SIBLING_FEATURES,
  grandFeatures,
  grandSiblingBase,
  grandSiblingFinish,
} from "../features/grand.js";
import {
  NO_SIBLING,
  noSiblingFeatures,
  SIBLING_FEATURES,
  SIBLING_PAIR_FEATURES,
  SIBLING_TRIPLE_FEATURES,
  siblingPairFeatures,
  siblingTripleBase,
  siblingTripleFinish,
} from "../features/sibling.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { ArcScorer } from "./arc-scorer.js";

/**
 * Scores the parts of one sentence for the higher-order decoders with one hashed weight vector:
 * first-order arc features (via `ArcScorer`, only for the arcs the mask allows), sibling, grandparent
 * and grand-sibling features. Sums that depend on two tokens only (sibling pair s–m, "no inner sibling"
 * parts) are cached per sentence; a part's features are extracted only when a decoder asks for it.
 *
 * With 16-bit integer weights every score is given in units of `scale` (the plain integer sum of the
 * weights, not multiplied by it). The decoders only add and compare scores, so the best tree is the
 * same, and their sums are exact. It also keeps the part methods from allocating: a decoder's call
 * to them is not inlined, and a number returned from such a call is a new heap object unless it is
 * a small integer. A third-order parse asks for millions of parts (docs/performance.md).
 */
export class HigherOrderScorer implements GrandSiblingScorer {
  /** The first-order scorer sharing the weight vector. */
  readonly arcs: ArcScorer;
  /** Number of sibling, grandparent and grand-sibling parts whose features were extracted since `prepare`. */
  partsScored = 0;
  private readonly buf = new Int32Array(SIBLING_FEATURES + GRAND_FEATURES + GRAND_SIBLING_FEATURES);
  private readonly arcBuf = new Int32Array(MAX_ARC_FEATURES);
  private x: FeatureSentence | null = null;
  private arcScores: Float64Array = new Float64Array(0);
  private size = 0;
  private pairCache = new Float64Array(0);
  private noneCache = new Float64Array(0);
  private readonly wmask: number;
  /** Index mask of the part features (sibling, grandparent, grand-sibling): `partRegionMask`. */
  private readonly pmask: number;
  private lossGold: Int32Array | null = null;
  private lossCost = 0;
  /** Triple-template states of the last (h, m) asked for (decoders ask for all siblings of one (h, m) in a row). */
  private readonly sibBase = new Int32Array(SIBLING_TRIPLE_FEATURES);
  private sibH = -1;
  private sibM = -1;
  /** Grand-sibling template states of the last (g, h, m). */
  private readonly gsBase = new Int32Array(GRAND_SIBLING_FEATURES);
  private gsG = -2;
  private gsH = -1;
  private gsM = -1;

  constructor(
    /**
     * Weight vector (length a power of two), shared by every part type: live floats while training,
     * or 16-bit integers (times `scale`) for parsing, which halves the memory read at random.
     */
    readonly weights: Float32Array | Int16Array,
    /**
     * What a sum of `weights` stands for per unit (the quantization step of 16-bit weights; 1 for
     * floats). Scores of 16-bit weights are returned in these units (see the class comment).
     */
    readonly scale = 1,
    /** log2 of the region the part features hash into (undefined: the whole table). */
    partBits?: number,
  ) {
    this.unit = weights instanceof Int16Array ? 1 : scale;
    this.arcs = new ArcScorer(weights, this.unit);
    this.wmask = weights.length - 1;
    this.pmask = partRegionMask(weights.length, partBits);
  }

  /**
   * What a sum of weights is multiplied by before it is returned: 1 with 16-bit weights (scores in
   * units of `scale`), else `scale`.
   */
  private readonly unit: number;

  /** Starts a sentence: scores the arcs `mask` allows and clears the per-sentence caches. */
  prepare(x: FeatureSentence, mask: ArcMask): void {
    this.x = x;
    const size = x.n + 1;
    this.size = size;
    this.arcScores = this.arcs.scoreAll(x, mask);
    if (this.pairCache.length < size * size) {
      this.pairCache = new Float64Array(size * size * 2);
      this.noneCache = new Float64Array(size * size * 2);
    }
    this.pairCache.fill(Number.NaN, 0, size * size);
    this.noneCache.fill(Number.NaN, 0, size * size);
    this.partsScored = 0;
    this.lossGold = null;
    this.sibH = -1;
    this.gsH = -1;
  }

  /**
   * Loss-augmented scoring for training (margin rescaling): after `prepare`, every arc h→m with
   * h ≠ gold[m] scores `cost` more, until the next `prepare`.
   */
  augmentLoss(gold: Int32Array, cost: number): void {
    const size = this.size;
    const sc = this.arcScores;
    for (let m = 1; m < size; m++) {
      const g = gold[m]!;
      for (let h = 0; h < size; h++) if (h !== m && h !== g) sc[h * size + m] = sc[h * size + m]! + cost;
    }
    this.lossGold = gold;
    this.lossCost = cost;
  }

  /** Number of arcs whose first-order features were extracted by the last `prepare`. */
  get arcsScored(): number {
    return this.arcs.scored;
  }

  /**
   * Whether `prepare` leaves each modifier's only allowed head unscored (first-order score 0; see
   * `ArcScorer.skipForced`). The decoders read the same flag (`SiblingScorer.skipForced`) and then also
   * leave unasked the sibling, grandparent and grand-sibling parts that every tree holds.
   */
  get skipForced(): boolean {
    return this.arcs.skipForced;
  }

  set skipForced(on: boolean) {
    this.arcs.skipForced = on;
  }

  /** Number of forced arcs the last `prepare` left unscored. */
  get arcsForced(): number {
    return this.arcs.forced;
  }

  /** Score of arc h→m (first-order features; arcs a decoder's fallback restored are scored on demand). */
  arc(h: number, m: number): number {
    const i = h * this.size + m;
    let v = this.arcScores[i]!;
    if (v === Number.NEGATIVE_INFINITY) {
      const k = arcFeatures(this.x!, h, m, this.arcBuf, this.wmask);
      v = 0;
      for (let j = 0; j < k; j++) v += this.weights[this.arcBuf[j]!]!;
      v *= this.unit;
      if (this.lossGold !== null && this.lossGold[m] !== h) v += this.lossCost;
      this.arcScores[i] = v;
    }
    return v;
  }

  /** Score of sibling part (h, s, m); s = h: m is h's closest child on its side. */
  sib(h: number, s: number, m: number): number {
    const x = this.x!;
    const w = this.weights;
    const buf = this.buf;
    this.partsScored++;
    if (s === h) {
      const i = h * this.size + m;
      let v = this.noneCache[i]!;
      if (Number.isNaN(v)) {
        const k = noSiblingFeatures(x, h, m, buf, 0, this.pmask);
        v = 0;
        for (let j = 0; j < k; j++) v += w[buf[j]!]!;
        v *= this.unit;
        this.noneCache[i] = v;
      }
      return v;
    }
    const i = s * this.size + m;
    let v = this.pairCache[i]!;
    if (Number.isNaN(v)) {
      siblingPairFeatures(x, s, m, buf, 0, this.pmask);
      v = 0;
      for (let j = 0; j < SIBLING_PAIR_FEATURES; j++) v += w[buf[j]!]!;
      v *= this.unit;
      this.pairCache[i] = v;
    }
    if (h !== this.sibH || m !== this.sibM) {
      siblingTripleBase(x, h, m, this.sibBase);
      this.sibH = h;
      this.sibM = m;
    }
    siblingTripleFinish(this.sibBase, x.word[s]!, x.xpos[s]!, x.upos[s]!, buf, 0, this.pmask);
    let t = 0;
    for (let j = 0; j < SIBLING_TRIPLE_FEATURES; j++) t += w[buf[j]!]!;
    return v + t * this.unit;
  }

  /** Score of grandparent part (g, h, m); g = -1 when h is the root. */
  grand(g: number, h: number, m: number): number {
    const w = this.weights;
    const buf = this.buf;
    this.partsScored++;
    grandFeatures(this.x!, g, h, m, buf, this.pmask);
    let v = 0;
    for (let j = 0; j < GRAND_FEATURES; j++) v += w[buf[j]!]!;
    return v * this.unit;
  }

  /** Score of grand-sibling part (g, h, s, m). */
  gsib(g: number, h: number, s: number, m: number): number {
    const w = this.weights;
    const buf = this.buf;
    this.partsScored++;
    const x = this.x!;
    if (g !== this.gsG || h !== this.gsH || m !== this.gsM) {
      grandSiblingBase(x, g, h, m, this.gsBase);
      this.gsG = g;
      this.gsH = h;
      this.gsM = m;
    }
    if (s === h) grandSiblingFinish(this.gsBase, NO_SIBLING, NO_SIBLING, buf, this.pmask);
    else grandSiblingFinish(this.gsBase, x.xpos[s]!, x.upos[s]!, buf, this.pmask);
    let v = 0;
    for (let j = 0; j < GRAND_SIBLING_FEATURES; j++) v += w[buf[j]!]!;
    return v * this.unit;
  }
}

/**
 * The index mask of the part features (sibling, grandparent and grand-sibling) of a table of `size`
 * weights: its first 2^partBits weights (shared with whatever arc features land there), or the whole
 * table when partBits is undefined (models written before the region existed). A third-order parse
 * reads several part weights per surviving arc, about as many as its arc weights; kept in 2 MB
 * (16-bit weights, partBits 20) they stay in cache while the arc features spread over the table.
 */
export function partRegionMask(size: number, partBits: number | undefined): number {
  const whole = size - 1;
  return partBits === undefined ? whole : whole & ((1 << partBits) - 1);
}
