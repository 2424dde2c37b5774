import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { EisnerDecoder } from "../decode/eisner.js";
import { EisnerMaxMarginals } from "../decode/eisner-max-marginals.js";
import { alphaThreshold, vinePruneMask } from "../decode/max-marginal-pruning.js";
import { siblingParts } from "../decode/parts.js";
import { SecondOrderDecoder } from "../decode/second-order.js";
import { SiblingMaxMarginals } from "../decode/sibling-max-marginals.js";
import { VineParser } from "../decode/vine-parser.js";
import { toVineStructure, VINE_LEFT, VINE_RIGHT, vineSlotHead } from "../decode/vine-structure.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import { arcFeatures, MAX_ARC_FEATURES } from "../features/first-order.js";
import { siblingFeatures } from "../features/sibling.js";
import { ArcMask } from "../mask/arc-mask.js";
import { quantizeWeights } from "../model/model-file.js";
import { ArcScorer } from "../parser/arc-scorer.js";
import { HigherOrderScorer } from "../parser/higher-order-scorer.js";
import { Rng } from "../util/rng.js";
import { PruningCascade } from "./cascade.js";
import { applyArcThreshold, MaxMarginalPass, type PassFeatures } from "./max-marginal-pass.js";
import type { ArcPruner } from "./pruner.js";
import { outerFeatures, VinePartScorer } from "./vine-features.js";
import { VinePass } from "./vine-pass.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Options of one structured-prediction-cascade pass (`trainSpcPass`). */
export interface SpcOptions {
  /** Passes over the training data (default 5). */
  epochs?: number;
  /** α used in the training loss [1 − score(gold) + t_α(w)]₊ (default 0.5). */
  trainAlpha?: number;
  /** L2 regularisation strength λ: weights shrink by (1 − λ) per training sentence (default 1e-5). */
  lambda?: number;
  /** Step size of the subgradient updates (default 1). */
  eta?: number;
  /** log2 of the weight-table size (default 22). */
  bits?: number;
  /** Shuffling seed (default 1). */
  seed?: number;
  /** Called after every epoch. */
  onEpoch?: (r: SpcEpochReport) => void;
}

/** What one epoch of cascade training did. */
export interface SpcEpochReport {
  epoch: number;
  seconds: number;
  /** Mean loss [1 − score(gold) + t_α]₊ over the epoch's sentences (before each update). */
  meanLoss: number;
  /** Sentences with positive loss (updated). */
  violations: number;
}

/** What a pass to be trained is: the vine (band b), or a first- / second-order max-marginal model. */
export type SpcPassSpec =
  | { type: "vine"; band: number; headOuter?: boolean; features?: PassFeatures }
  | { type: "maxmarginal"; order: 1 | 2; features?: PassFeatures };

/** Feature indices and coefficients of one subgradient (duplicates allowed). */
class UpdateList {
  idx = new Int32Array(4096);
  val = new Float64Array(4096);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  /** Appends buf[0..k) with coefficient v. */
  push(buf: Int32Array, k: number, v: number): void {
    if (this.length + k > this.idx.length) {
      const cap = Math.max(this.length + k, this.idx.length * 2);
      const idx = new Int32Array(cap);
      idx.set(this.idx.subarray(0, this.length));
      const val = new Float64Array(cap);
      val.set(this.val.subarray(0, this.length));
      this.idx = idx;
      this.val = val;
    }
    for (let i = 0; i < k; i++) {
      this.idx[this.length] = buf[i]!;
      this.val[this.length++] = v;
    }
  }
}

/** Averaged weights with real-valued sparse updates and dense L2 shrinking (lazy-sum averaging). */
class AveragedSgd {
  readonly w: Float32Array;
  private readonly u: Float64Array;
  c = 0;
  constructor(size: number) {
    this.w = new Float32Array(size);
    this.u = new Float64Array(size);
  }
  /** w += eta · update. */
  apply(upd: UpdateList, eta: number): void {
    const w = this.w;
    const u = this.u;
    const c = this.c;
    for (let i = 0; i < upd.length; i++) {
      const j = upd.idx[i]!;
      const d = eta * upd.val[i]!;
      w[j] = w[j]! + d;
      u[j] = u[j]! + c * d;
    }
  }
  /** w *= f (a dense step, O(size)). */
  shrink(f: number): void {
    const w = this.w;
    const u = this.u;
    const c = this.c;
    for (let j = 0; j < w.length; j++) {
      const v = w[j]!;
      if (v === 0) continue;
      const d = (f - 1) * v;
      w[j] = v + d;
      u[j] = u[j]! + c * d;
    }
  }
  averaged(): Float32Array {
    const out = new Float32Array(this.w.length);
    const inv = 1 / (this.c > 0 ? this.c : 1);
    for (let j = 0; j < out.length; j++) out[j] = this.w[j]! - this.u[j]! * inv;
    return out;
  }
}

/** The model-specific half of cascade training: max-marginals, gold features and witness features. */
interface SpcModel {
  /** Max-marginals under the live weights: best and mean (best = -Infinity when no structure). */
  compute(x: FeatureSentence, mask: ArcMask): { best: number; mean: number };
  /** Adds coef · φ(gold) to upd and returns w · φ(gold). */
  gold(x: FeatureSentence, gold: Int32Array, upd: UpdateList, coef: number): number;
  /** Adds coef · (α φ(y*) + (1 − α) mean_a φ(y*_a)) to upd (after `compute` on the same sentence). */
  witness(x: FeatureSentence, mask: ArcMask, alpha: number, upd: UpdateList, coef: number): void;
}

function dotBuf(w: Float32Array, buf: Int32Array, k: number): number {
  let s = 0;
  for (let i = 0; i < k; i++) s += w[buf[i]!]!;
  return s;
}

/** The vine pass in training. */
class VineSpcModel implements SpcModel {
  private readonly scorer: VinePartScorer;
  private readonly parser: VineParser;
  private readonly buf = new Int32Array(MAX_ARC_FEATURES);
  private vh = new Int32Array(0);
  constructor(
    private readonly w: Float32Array,
    private readonly band: number,
    private readonly headOuter: boolean,
    private readonly coarse: boolean,
  ) {
    this.scorer = new VinePartScorer(w, band, 1, headOuter, coarse);
    this.parser = new VineParser({ band, headOuter });
  }
  compute(x: FeatureSentence, mask: ArcMask): { best: number; mean: number } {
    const mm = this.parser.maxMarginals(x.n, this.scorer.score(x, mask), mask);
    return { best: mm.best, mean: mm.mean };
  }
  /** Adds coef · φ(part) for the part into m given by a vine head; returns its score. */
  private part(x: FeatureSentence, vh: number, m: number, upd: UpdateList, coef: number): number {
    const wmask = this.w.length - 1;
    const k =
      vh === VINE_LEFT
        ? outerFeatures(x, m, 0, this.band, this.buf, wmask)
        : vh === VINE_RIGHT
          ? outerFeatures(x, m, 1, this.band, this.buf, wmask)
          : arcFeatures(x, vh, m, this.buf, wmask, this.coarse);
    upd.push(this.buf, k, coef);
    return dotBuf(this.w, this.buf, k);
  }
  /** Adds coef · φ(head-side outer arc i = 2h + side); returns its score. */
  private headPart(x: FeatureSentence, i: number, upd: UpdateList, coef: number): number {
    const k = outerFeatures(x, i >> 1, i & 1, this.band, this.buf, this.w.length - 1, 1);
    upd.push(this.buf, k, coef);
    return dotBuf(this.w, this.buf, k);
  }
  gold(x: FeatureSentence, gold: Int32Array, upd: UpdateList, coef: number): number {
    const n = x.n;
    if (this.vh.length < n + 1) this.vh = new Int32Array(2 * (n + 1));
    const vh = toVineStructure(gold, n, this.band, this.vh);
    let s = 0;
    for (let m = 1; m <= n; m++) {
      s += this.part(x, vh[m]!, m, upd, coef);
      // A long arc's outer arc comes with its head's head-side outer arc on m's side.
      if (this.headOuter && vh[m]! < 0) {
        const h = gold[m]!;
        s += this.headPart(x, 2 * h + (h < m ? 1 : 0), upd, coef);
      }
    }
    return s;
  }
  witness(x: FeatureSentence, mask: ArcMask, alpha: number, upd: UpdateList, coef: number): void {
    const n = x.n;
    const b = this.band;
    const W = 2 * b;
    const mm = this.parser.maxMarginals(n, this.scorer.scores, mask, { witness: true });
    if (!(mm.best > NEG) || mm.witness === null) return;
    for (let m = 1; m <= n; m++) this.part(x, mm.heads[m]!, m, upd, coef * alpha);
    const c = (coef * (1 - alpha)) / mm.parts;
    const wc = mm.witness;
    for (let m = 1; m <= n; m++) {
      for (let slot = 0; slot < W; slot++) {
        const k = wc.short[m * W + slot]!;
        if (k !== 0) this.part(x, vineSlotHead(b, m, slot), m, upd, c * k);
      }
      if (wc.root[m]! !== 0) this.part(x, 0, m, upd, c * wc.root[m]!);
      if (wc.outer[2 * m]! !== 0) this.part(x, VINE_LEFT, m, upd, c * wc.outer[2 * m]!);
      if (wc.outer[2 * m + 1]! !== 0) this.part(x, VINE_RIGHT, m, upd, c * wc.outer[2 * m + 1]!);
    }
    if (this.headOuter) {
      // The best structure's outer arcs take their best head-side partners.
      for (let m = 1; m <= n; m++) {
        const v = mm.heads[m]!;
        if (v !== VINE_LEFT && v !== VINE_RIGHT) continue;
        const side = v === VINE_LEFT ? 0 : 1;
        this.headPart(x, 2 * mm.outerHead[2 * m + side]! + 1 - side, upd, coef * alpha);
      }
      for (let i = 2; i < 2 * (n + 1); i++) {
        const k = wc.headOuter[i]!;
        if (k !== 0) this.headPart(x, i, upd, c * k);
      }
    }
  }
}

/** The first-order max-marginal pass in training. */
class FirstOrderSpcModel implements SpcModel {
  private readonly scorer: ArcScorer;
  private readonly emm = new EisnerMaxMarginals();
  private readonly decoder = new EisnerDecoder();
  private readonly buf = new Int32Array(MAX_ARC_FEATURES);
  private mm = new Float64Array(0);
  private scores: Float64Array = new Float64Array(0);
  private readonly coarse: boolean;
  constructor(
    private readonly w: Float32Array,
    features: PassFeatures,
  ) {
    this.coarse = features === "coarse";
    this.scorer = new ArcScorer(w, 1, this.coarse);
  }
  compute(x: FeatureSentence, mask: ArcMask): { best: number; mean: number } {
    const n = x.n;
    const cells = (n + 1) * (n + 1);
    if (this.mm.length < cells) this.mm = new Float64Array(2 * cells);
    this.scores = this.scorer.scoreAll(x, mask);
    const r = this.emm.compute(n, this.scores, mask, this.mm);
    let arcs = 0;
    let sum = 0;
    for (let i = 0; i < cells; i++) {
      const v = r.marginals[i]!;
      if (v > NEG) {
        arcs++;
        sum += v;
      }
    }
    return { best: r.best, mean: arcs > 0 ? sum / arcs : r.best };
  }
  private arc(x: FeatureSentence, h: number, m: number, upd: UpdateList, coef: number): number {
    const k = arcFeatures(x, h, m, this.buf, this.w.length - 1, this.coarse);
    upd.push(this.buf, k, coef);
    return dotBuf(this.w, this.buf, k);
  }
  gold(x: FeatureSentence, gold: Int32Array, upd: UpdateList, coef: number): number {
    let s = 0;
    for (let m = 1; m <= x.n; m++) s += this.arc(x, gold[m]!, m, upd, coef);
    return s;
  }
  witness(x: FeatureSentence, mask: ArcMask, alpha: number, upd: UpdateList, coef: number): void {
    const n = x.n;
    const size = n + 1;
    const wc = this.emm.witnessCounts();
    if (wc.witnesses === 0) return;
    const c = (coef * (1 - alpha)) / wc.witnesses;
    for (let h = 0; h <= n; h++)
      for (let m = 1; m <= n; m++) {
        const k = wc.arcs[h * size + m]!;
        if (k !== 0) this.arc(x, h, m, upd, c * k);
      }
    const best = this.decoder.decode(n, this.scores, mask).heads;
    for (let m = 1; m <= n; m++) this.arc(x, best[m]!, m, upd, coef * alpha);
  }
}

/** The second-order (sibling) max-marginal pass in training. */
class SecondOrderSpcModel implements SpcModel {
  private readonly scorer: HigherOrderScorer;
  private readonly smm = new SiblingMaxMarginals();
  private readonly decoder = new SecondOrderDecoder();
  private readonly buf = new Int32Array(MAX_ARC_FEATURES);
  private mm = new Float64Array(0);
  constructor(private readonly w: Float32Array) {
    this.scorer = new HigherOrderScorer(w);
  }
  compute(x: FeatureSentence, mask: ArcMask): { best: number; mean: number } {
    const cells = (x.n + 1) * (x.n + 1);
    if (this.mm.length < cells) this.mm = new Float64Array(2 * cells);
    this.scorer.prepare(x, mask);
    const r = this.smm.compute(mask, this.scorer, this.mm);
    return { best: r.best, mean: r.arcs > 0 ? r.sum / r.arcs : r.best };
  }
  private arc(x: FeatureSentence, h: number, m: number, upd: UpdateList, coef: number): number {
    const k = arcFeatures(x, h, m, this.buf, this.w.length - 1);
    upd.push(this.buf, k, coef);
    return dotBuf(this.w, this.buf, k);
  }
  private sib(x: FeatureSentence, h: number, s: number, m: number, upd: UpdateList, coef: number): number {
    const k = siblingFeatures(x, h, s, m, this.buf, this.w.length - 1);
    upd.push(this.buf, k, coef);
    return dotBuf(this.w, this.buf, k);
  }
  gold(x: FeatureSentence, gold: Int32Array, upd: UpdateList, coef: number): number {
    const parts = siblingParts(gold.subarray(0, x.n + 1));
    let s = 0;
    for (let i = 0; i < parts.length; i += 3) {
      s += this.arc(x, parts[i]!, parts[i + 2]!, upd, coef);
      s += this.sib(x, parts[i]!, parts[i + 1]!, parts[i + 2]!, upd, coef);
    }
    return s;
  }
  witness(x: FeatureSentence, mask: ArcMask, alpha: number, upd: UpdateList, coef: number): void {
    const n = x.n;
    const size = n + 1;
    const wc = this.smm.witnessCounts();
    if (wc.witnesses === 0) return;
    const c = (coef * (1 - alpha)) / wc.witnesses;
    for (let h = 0; h <= n; h++)
      for (let m = 1; m <= n; m++) {
        const k = wc.arcs[h * size + m]!;
        if (k !== 0) this.arc(x, h, m, upd, c * k);
      }
    for (let i = 0; i < wc.partCount; i++) {
      const q = 4 * i;
      this.sib(x, wc.parts[q]!, wc.parts[q + 1]!, wc.parts[q + 2]!, upd, c * wc.parts[q + 3]!);
    }
    const best = this.decoder.decode(mask, this.scorer).heads;
    const parts = siblingParts(best.subarray(0, n + 1));
    for (let i = 0; i < parts.length; i += 3) {
      this.arc(x, parts[i]!, parts[i + 2]!, upd, coef * alpha);
      this.sib(x, parts[i]!, parts[i + 1]!, parts[i + 2]!, upd, coef * alpha);
    }
  }
}

/** Feature atoms of sentences, prepared once (training reads them every epoch). */
export function prepareAtoms(sentences: readonly Sentence[], vocab: Vocabularies): FeatureSentence[] {
  const cache = new AtomCache();
  return sentences.map((s) => {
    // One FeatureSentence per sentence: each keeps its own arrays.
    return cache.prepare(s, vocab, new FeatureSentence());
  });
}

/**
 * Trains the weights of one cascade pass as a structured prediction cascade (Weiss & Taskar 2010;
 * Rush & Petrov 2012): minimises λ/2 ‖w‖² + Σ_x [1 − w·φ(x, gold) + t_α(x, w)]₊ with
 * t_α = α · max_y w·φ(x, y) + (1 − α) · mean_a maxmarginal(a), by averaged stochastic subgradient
 * steps (perceptron-style, step `eta`; L2 as a (1 − λ) shrink per sentence, applied every 100
 * sentences). The subgradient of t_α is α φ(y*) + (1 − α) mean_a φ(y*_a), the witness counts of the
 * max-marginal dynamic programs. Each sentence is seen under its `masks` entry (what earlier passes
 * left). Returns float weights (quantized as a saved model is).
 */
export function trainSpcPass(
  spec: SpcPassSpec,
  sentences: readonly Sentence[],
  atoms: readonly FeatureSentence[],
  masks: readonly ArcMask[],
  opts: SpcOptions = {},
): Float32Array {
  const epochs = opts.epochs ?? 5;
  const alpha = opts.trainAlpha ?? 0.5;
  const lambda = opts.lambda ?? 1e-5;
  const eta = opts.eta ?? 1;
  const bits = opts.bits ?? 22;
  const rng = new Rng(opts.seed ?? 1);
  const model = new AveragedSgd(1 << bits);
  const m: SpcModel =
    spec.type === "vine"
      ? new VineSpcModel(model.w, spec.band, spec.headOuter ?? false, spec.features === "coarse")
      : spec.order === 1
        ? new FirstOrderSpcModel(model.w, spec.features ?? "full")
        : new SecondOrderSpcModel(model.w);
  const upd = new UpdateList();
  const order = Array.from(sentences.keys());
  const SHRINK_EVERY = 100;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    rng.shuffle(order);
    const t0 = performance.now();
    let lossSum = 0;
    let violations = 0;
    for (const i of order) {
      const x = atoms[i]!;
      const mask = masks[i]!;
      if (x.n >= 2) {
        const r = m.compute(x, mask);
        if (r.best > NEG) {
          const t = alphaThreshold(r.best, r.mean, alpha);
          upd.clear();
          const g = m.gold(x, sentences[i]!.head, upd, 1);
          const loss = 1 - g + t;
          if (loss > 0) {
            lossSum += loss;
            violations++;
            m.witness(x, mask, alpha, upd, -1);
            model.apply(upd, eta);
          }
        }
      }
      model.c++;
      if (lambda > 0 && model.c % SHRINK_EVERY === 0) model.shrink(Math.pow(1 - eta * lambda, SHRINK_EVERY));
    }
    opts.onEpoch?.({
      epoch,
      seconds: (performance.now() - t0) / 1000,
      meanLoss: sentences.length > 0 ? lossSum / sentences.length : 0,
      violations,
    });
  }
  return quantizeWeights(model.averaged());
}

/** A trained cascade pass of either type, with α exposed for tuning. */
export type SpcPass = VinePass | MaxMarginalPass;

/** Coverage and reduction of a pass at one α over a set of sentences. */
export interface AlphaPoint {
  alpha: number;
  /** Arcs allowed before the pass (Σ over sentences). */
  arcsIn: number;
  /** Arcs kept by the pass. */
  kept: number;
  /** Gold arcs allowed before the pass. */
  goldIn: number;
  /** Gold arcs kept by the pass. */
  goldKept: number;
}

/**
 * The α grid searched on dev. Rush & Petrov use α in [0, 1]; values below 0 put the threshold below
 * the mean max-marginal (t_α = mean − |α|·(best − mean)), for passes whose dev gold arcs often fall
 * below the mean (small training sets).
 */
export const ALPHA_GRID: readonly number[] = [
  -1, -0.8, -0.6, -0.5, -0.4, -0.3, -0.25, -0.2, -0.15, -0.1, -0.05, 0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35,
  0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99,
];

/**
 * What the pass keeps at every α of `grid` on the given sentences (masks = input of the pass, not
 * modified): max-marginals are computed once per sentence.
 */
export function alphaCurve(
  pass: SpcPass,
  sentences: readonly Sentence[],
  atoms: readonly FeatureSentence[],
  masks: readonly ArcMask[],
  grid: readonly number[] = ALPHA_GRID,
): AlphaPoint[] {
  const pts: AlphaPoint[] = grid.map((alpha) => ({ alpha, arcsIn: 0, kept: 0, goldIn: 0, goldKept: 0 }));
  const scratch = new Map<number, ArcMask>();
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    const x = atoms[i]!;
    const mask = masks[i]!;
    const n = s.n;
    const size = n + 1;
    const arcsIn = mask.count();
    let goldIn = 0;
    for (let m = 1; m <= n; m++) goldIn += mask.bits[s.head[m]! * size + m]!;
    for (const p of pts) {
      p.arcsIn += arcsIn;
      p.goldIn += goldIn;
    }
    if (n <= 1) {
      for (const p of pts) {
        p.kept += arcsIn;
        p.goldKept += goldIn;
      }
      continue;
    }
    let out = scratch.get(n);
    if (out === undefined) {
      out = ArcMask.empty(n);
      scratch.set(n, out);
    }
    if (pass instanceof VinePass) {
      const mm = pass.maxMarginals(x, mask);
      for (const p of pts) {
        const res = vinePruneMask(mm, alphaThreshold(mm.best, mm.mean, p.alpha), mask, out);
        p.kept += res.count();
        for (let m = 1; m <= n; m++) p.goldKept += res.bits[s.head[m]! * size + m]!;
      }
    } else {
      const mm = pass.maxMarginals(x, mask);
      for (const p of pts) {
        out.bits.set(mask.bits.subarray(0, size * size));
        if (mm.best > NEG) applyArcThreshold(mm, alphaThreshold(mm.best, mm.mean, p.alpha), out);
        p.kept += out.count();
        for (let m = 1; m <= n; m++) p.goldKept += out.bits[s.head[m]! * size + m]!;
      }
    }
  }
  return pts;
}

/** The largest α whose share of lost gold arcs (of those allowed before the pass) is ≤ maxLoss. */
export function chooseAlpha(curve: readonly AlphaPoint[], maxLoss: number): AlphaPoint {
  let best = curve[0]!;
  for (const p of curve) {
    const loss = p.goldIn > 0 ? 1 - p.goldKept / p.goldIn : 0;
    if (loss <= maxLoss && p.alpha >= best.alpha) best = p;
  }
  return best;
}

/** Options of `trainVineCascade`. */
export interface VineCascadeOptions {
  /** Order of the final model the cascade prunes for: 1 → vine; 2 → vine, 1st; 3 → vine, 1st, 2nd. */
  order: 1 | 2 | 3;
  /** Candidate bands of the vine pass (default [3]); the one pruning most on dev at its loss target wins. */
  bands?: readonly number[];
  /** Largest share of dev gold arcs each pass may lose (default [0.002, 0.003, 0.003]), in pass order. */
  maxLoss?: readonly number[];
  /**
   * Training options of every pass (bits default 20: on en_ewt, 2^20-entry tables pruned as well as
   * 2^22/2^23 (dev 60.7/28.2/21.1% of arcs kept after each pass against 60.9/28.4/20.2%, final
   * third-order dev UAS 85.59 against 85.62) with the cascade 15% faster and the model 33% smaller).
   */
  spc?: SpcOptions;
  /**
   * Passes run before the cascade, such as the arc filters of Bergsma & Cherry (2010): the cascade's
   * passes train and are tuned on the masks these leave, and the returned cascade starts with them.
   */
  prefix?: PruningCascade;
  /**
   * The prefix's masks of the training sentences, when they should not be its own: e.g. each fold
   * masked by filters trained without it (`vineparse train --filter-folds`), which are as sharp on
   * it as the prefix will be on new text. Dev is still masked by the prefix.
   */
  prefixTrainMasks?: readonly (ArcMask | null)[];
  /**
   * Whether the cascade starts with a vine pass (default true). Without one, the prefix takes its
   * place (it needs a prefix, or order ≥ 2 to have a pass at all), and at order 1 a first-order
   * max-marginal pass follows the prefix.
   */
  vinePass?: boolean;
  /**
   * Order 3: whether a second-order (sibling) max-marginal pass follows the first-order one (default
   * true). Without it the third-order model parses what the first-order pass leaves: on en_ewt behind
   * the arc filters, the sibling pass cost more time than it saved the final parse.
   */
  secondOrderPass?: boolean;
  /** Features of the first-order max-marginal pass: the parser's (default) or the coarse subset. */
  passFeatures?: PassFeatures;
  /** Features of the vine pass's short and root arcs: the parser's (default) or the coarse subset. */
  vineFeatures?: PassFeatures;
  /**
   * Whether the vine pass has head-side outer arcs too (default true), so that a long arc survives
   * only when the outer arcs at both of its ends do.
   */
  headOuter?: boolean;
  /** Progress messages. */
  log?: (line: string) => void;
}

/** Mask totals of one set of sentences before and after a pass. */
export interface PassTotals {
  arcs: number;
  keptBefore: number;
  keptAfter: number;
  gold: number;
  goldBefore: number;
  goldAfter: number;
}

/** What training one pass produced. */
export interface CascadePassReport {
  /** "vine b=3", "first-order", "second-order"; for the passes of `prefix`, their kinds ("rules+linear+…"). */
  name: string;
  /** The α chosen on dev (NaN for the prefix, which has its own operating points). */
  alpha: number;
  seconds: number;
  train: PassTotals;
  dev: PassTotals | null;
  /** The dev α curve the α was chosen on. */
  curve: AlphaPoint[];
}

/** A trained cascade and what each pass did. */
export interface VineCascadeResult {
  cascade: PruningCascade;
  passes: CascadePassReport[];
  /** Masks the cascade leaves on the training sentences (what the final model trains on). */
  trainMasks: ArcMask[];
  /** Masks on the dev sentences. */
  devMasks: ArcMask[];
}

function totals(
  sentences: readonly Sentence[],
  before: readonly ArcMask[],
  after: readonly ArcMask[],
): PassTotals {
  const t: PassTotals = { arcs: 0, keptBefore: 0, keptAfter: 0, gold: 0, goldBefore: 0, goldAfter: 0 };
  sentences.forEach((s, i) => {
    const n = s.n;
    const size = n + 1;
    t.arcs += n * n;
    t.gold += n;
    t.keptBefore += before[i]!.count();
    t.keptAfter += after[i]!.count();
    for (let m = 1; m <= n; m++) {
      t.goldBefore += before[i]!.bits[s.head[m]! * size + m]!;
      t.goldAfter += after[i]!.bits[s.head[m]! * size + m]!;
    }
  });
  return t;
}

function applyPass(pass: SpcPass, atoms: readonly FeatureSentence[], masks: readonly ArcMask[]): ArcMask[] {
  return masks.map((mk, i) => {
    const out = mk.clone();
    pass.pruneAtoms(atoms[i]!, out);
    return out;
  });
}

/** Default log2 size of each cascade pass's weight table (see `VineCascadeOptions.spc`). */
export const CASCADE_BITS = 20;

/**
 * Trains the vine-pruning cascade of Rush & Petrov (2012) for a final model of the given order: a vine
 * pass (band chosen on dev among `bands`), then for orders 2 and 3 a first-order max-marginal pass, and
 * for order 3 a second-order one. Without the vine pass the prefix's filters take its place, and a
 * first-order pass is trained at every order (at order 1 it is a coarse-to-fine step of the same
 * order, cheapest with `passFeatures` "coarse"). Each pass is trained as a structured prediction
 * cascade on the masks the earlier passes leave on the training data; its α is the largest whose dev
 * gold-arc loss stays within `maxLoss`. Without dev sentences α is tuned on the training data.
 */
export function trainVineCascade(
  train: readonly Sentence[],
  dev: readonly Sentence[] | null,
  vocab: Vocabularies,
  opts: VineCascadeOptions,
): VineCascadeResult {
  const log = opts.log ?? (() => {});
  const bands = opts.bands ?? [3];
  const maxLoss = opts.maxLoss ?? [0.002, 0.003, 0.003];
  const prefix = opts.prefix ?? new PruningCascade();
  const vinePass = opts.vinePass ?? true;
  const headOuter = opts.headOuter ?? true;
  if (!vinePass && prefix.empty && opts.order === 1)
    throw new RangeError("trainVineCascade: no vine pass, no prefix and order 1: no pass to train");
  const trainAtoms = prepareAtoms(train, vocab);
  const tuneSet = dev !== null && dev.length > 0 ? dev : null;
  const devAtoms = tuneSet === null ? [] : prepareAtoms(tuneSet, vocab);
  let trainMasks = train.map((s) => ArcMask.full(s.n));
  let devMasks = tuneSet === null ? [] : tuneSet.map((s) => ArcMask.full(s.n));
  const passes: ArcPruner[] = [...prefix.passes];
  const reports: CascadePassReport[] = [];
  if (!prefix.empty) {
    const t0 = performance.now();
    const given = opts.prefixTrainMasks;
    if (given !== undefined && given.length !== train.length)
      throw new RangeError(`trainVineCascade: ${given.length} prefix masks for ${train.length} sentences`);
    const newTrain = (given ?? prefix.masksFor(train, vocab)).map((m, i) => m ?? ArcMask.full(train[i]!.n));
    const newDev = tuneSet === null ? [] : prefix.masksFor(tuneSet, vocab).map((m) => m!);
    const report: CascadePassReport = {
      name: prefix.name,
      alpha: Number.NaN,
      seconds: (performance.now() - t0) / 1000,
      train: totals(train, trainMasks, newTrain),
      dev: tuneSet === null ? null : totals(tuneSet, devMasks, newDev),
      curve: [],
    };
    reports.push(report);
    log(`cascade ${prefix.name}: ${lossText(report)}`);
    trainMasks = newTrain;
    devMasks = newDev;
  }
  const specs: { name: string; spec: SpcPassSpec; bits: number }[][] = [];
  if (vinePass)
    specs.push(
      bands.map((b) => ({
        name: `vine b=${b}${headOuter ? " (both ends)" : ""}${opts.vineFeatures === "coarse" ? " (coarse features)" : ""}`,
        spec: { type: "vine", band: b, headOuter, features: opts.vineFeatures ?? "full" },
        bits: CASCADE_BITS,
      })),
    );
  // Order 1 without a vine pass: a first-order pass takes its place behind the filters (with coarse
  // features, a coarse-to-fine step of the same order).
  if (opts.order >= 2 || !vinePass)
    specs.push([
      {
        name: opts.passFeatures === "coarse" ? "first-order (coarse features)" : "first-order",
        spec: { type: "maxmarginal", order: 1, features: opts.passFeatures ?? "full" },
        bits: CASCADE_BITS,
      },
    ]);
  if (opts.order >= 3 && (opts.secondOrderPass ?? true))
    specs.push([{ name: "second-order", spec: { type: "maxmarginal", order: 2 }, bits: CASCADE_BITS }]);
  specs.forEach((candidates, i) => {
    // Losses are given per pass of the full vine cascade (vine, first-order, second-order).
    const level = vinePass ? i : i + 1;
    const loss = maxLoss[Math.min(level, maxLoss.length - 1)]!;
    let chosen: {
      pass: SpcPass;
      point: AlphaPoint;
      curve: AlphaPoint[];
      name: string;
      seconds: number;
    } | null = null;
    for (const c of candidates) {
      const t0 = performance.now();
      const w = trainSpcPass(c.spec, train, trainAtoms, trainMasks, {
        bits: c.bits,
        ...opts.spc,
        onEpoch: (r) => {
          log(
            `cascade ${c.name}: epoch ${r.epoch}  ${r.seconds.toFixed(1)} s  mean loss ${r.meanLoss.toFixed(3)}  violations ${r.violations}`,
          );
          opts.spc?.onEpoch?.(r);
        },
      });
      const pass: SpcPass =
        c.spec.type === "vine"
          ? VinePass.fromFloats(w, c.spec.band, 0, c.spec.headOuter ?? false, c.spec.features ?? "full")
          : MaxMarginalPass.fromFloats(c.spec.order, w, 0, c.spec.features ?? "full");
      const curve =
        tuneSet === null
          ? alphaCurve(pass, train, trainAtoms, trainMasks)
          : alphaCurve(pass, tuneSet, devAtoms, devMasks);
      const point = chooseAlpha(curve, loss);
      pass.alpha = point.alpha;
      const seconds = (performance.now() - t0) / 1000;
      log(
        `cascade ${c.name}: α = ${point.alpha} keeps ${pct(point.goldKept, point.goldIn)}% of gold arcs, ${pct(point.kept, point.arcsIn)}% of arcs (${tuneSet === null ? "train" : "dev"})`,
      );
      if (chosen === null || point.kept < chosen.point.kept)
        chosen = { pass, point, curve, name: c.name, seconds };
    }
    const pass = chosen!.pass;
    const newTrain = applyPass(pass, trainAtoms, trainMasks);
    const newDev = applyPass(pass, devAtoms, devMasks);
    const report: CascadePassReport = {
      name: chosen!.name,
      alpha: pass.alpha,
      seconds: chosen!.seconds,
      train: totals(train, trainMasks, newTrain),
      dev: tuneSet === null ? null : totals(tuneSet, devMasks, newDev),
      curve: chosen!.curve,
    };
    reports.push(report);
    log(`cascade ${chosen!.name} (α ${pass.alpha}): ${lossText(report)}`);
    passes.push(pass);
    trainMasks = newTrain;
    devMasks = newDev;
  });
  return { cascade: new PruningCascade(passes), passes: reports, trainMasks, devMasks };
}

/** "train loses … gold arcs, keeps …% of arcs; dev …" for one pass. */
function lossText(r: CascadePassReport): string {
  const part = (t: PassTotals) =>
    `loses ${t.goldBefore - t.goldAfter} gold arcs, keeps ${pct(t.keptAfter, t.arcs)}% of arcs`;
  return `train ${part(r.train)}` + (r.dev === null ? "" : `; dev ${part(r.dev)}`);
}

function pct(a: number, b: number): string {
  return b > 0 ? ((100 * a) / b).toFixed(2) : "100";
}
