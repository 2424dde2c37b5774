import type { FeatureSentence } from "../features/feature-sentence.js";
import {
  BetweenTags,
  dirDist,
  dirDistIndex,
  HEAD_SIDE,
  MAX_ARC_FEATURES,
  MODIFIER_SIDE,
  pairFeatures,
  UNIGRAM_FEATURES,
  unigramFeatures,
} from "../features/first-order.js";
import { SetCellScanner } from "../decode/arc-scan.js";
import type { ArcMask } from "../mask/arc-mask.js";

/**
 * Scores first-order arcs of a sentence with a hashed linear model, skipping arcs a mask prunes.
 * Unigram (head-only and modifier-only) feature sums are cached per token and direction/distance bin,
 * so each arc only hashes its pair features; each head's arcs are visited outward from the head, so
 * the in-between tags grow by one position per arc instead of being rescanned.
 */
export class ArcScorer {
  /** Reusable buffer of feature indices for one arc. */
  readonly buf = new Int32Array(MAX_ARC_FEATURES);
  /** Reusable score matrix, grown as needed; scores[h * (n + 1) + m]. */
  scores = new Float64Array(0);
  /** Number of arcs whose features were extracted by the last `scoreAll` (for measurements). */
  scored = 0;
  /**
   * Whether `scoreAll` under a mask gives score 0, without extracting features, to every arc that is
   * the only allowed head of its modifier. Every tree the mask admits contains such an arc, so its score
   * adds one constant to all of them: neither the best tree nor any max-marginal comparison (the
   * threshold α·max + (1 − α)·mean moves by the same constant) depends on it. Off by default: trainers
   * learn from those scores and top-k ranks each modifier's heads. Parsers and max-marginal passes turn
   * it on, and rescore with it off before a fallback decode (a mask admitting no tree), whose restored
   * arcs compete with the skipped ones.
   */
  skipForced = false;
  /** Number of arcs the last `scoreAll` gave 0 as forced (see `skipForced`). */
  forced = 0;
  /** Per modifier: 0, 1 or 2 (two or more) allowed heads, made by `scoreAll` with `skipForced`. */
  private heads = new Uint8Array(0);
  private headCache = new Float64Array(0);
  private modCache = new Float64Array(0);
  private readonly between = new BetweenTags();
  private readonly scanner = new SetCellScanner();
  /** Whether unigram sums are made per bin (`fillBin`) rather than all bins of a position at once. */
  private perBin = false;
  /** Per position and side (2i: head, 2i + 1: modifier): the sum of the base unigram weights, and their indices. */
  private baseSum = new Float64Array(0);
  private baseIdx = new Int32Array(0);

  constructor(
    /**
     * Weight vector (length a power of two): live float weights while training, or 16-bit quantized
     * weights (times `scale`) for parsing, which halves the memory the scorer reads at random.
     */
    public weights: Float32Array | Int16Array,
    /** Factor applied to sums of `weights` (the quantization step for Int16 weights, else 1). */
    public scale = 1,
    /** The coarse pair templates of a pruning pass (`pairFeatures`) instead of the parser's full set. */
    readonly coarse = false,
  ) {}

  /** Fills `this.scores` for every allowed arc of `x` (all arcs when mask is null) and returns it. */
  scoreAll(x: FeatureSentence, mask: ArcMask | null): Float64Array {
    const n = x.n;
    const size = n + 1;
    if (this.scores.length < size * size) this.scores = new Float64Array(size * size * 2);
    if (mask !== null) return this.scoreMasked(x, mask);
    this.begin(x, false);
    const scores = this.scores;
    const between = this.between;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      scores[row + h] = Number.NEGATIVE_INFINITY;
      // The tags between h and m grow by one position per arc, outward from h.
      between.reset(x);
      for (let m = h - 1; m >= 1; m--) {
        if (m < h - 1) between.add(x, m + 1);
        this.score(x, h, m, scores, row + m);
      }
      between.reset(x);
      for (let m = h + 1; m <= n; m++) {
        if (m > h + 1) between.add(x, m - 1);
        this.score(x, h, m, scores, row + m);
      }
    }
    this.scored = n * n;
    this.forced = 0;
    return scores;
  }

  /**
   * `scoreAll` under a mask: every cell starts at -Infinity and only the allowed arcs, found by a scan
   * of the mask four cells at a time, are scored; most tokens take part in few arcs, so their unigram
   * sums are made per bin as needed. Each head's arcs are still scored outward from it, and the tags
   * between h and m are added only up to the next allowed arc (the same lists for every arc scored).
   */
  private scoreMasked(x: FeatureSentence, mask: ArcMask): Float64Array {
    const n = x.n;
    const size = n + 1;
    const scores = this.scores;
    const between = this.between;
    this.begin(x, true);
    scores.fill(Number.NEGATIVE_INFINITY, 0, size * size);
    const found = this.scanner.scan(mask.bits, size * size);
    const cells = this.scanner.cells;
    const heads = this.skipForced ? this.countHeads(cells, found, size) : null;
    let scored = 0;
    let forced = 0;
    let q = 0;
    for (let h = 0; h <= n && q < found; h++) {
      const row = h * size;
      const end = row + size;
      const q0 = q;
      while (q < found && cells[q]! < end) q++;
      if (q === q0) continue;
      // Left arcs, nearest first: the row's cells below row + h, from the last down.
      let j = q0;
      while (j < q && cells[j]! < row + h) j++;
      between.reset(x);
      let next = h - 1;
      for (let i = j - 1; i >= q0; i--) {
        const m = cells[i]! - row;
        if (m === 0) continue;
        if (heads !== null && heads[m] === 1) {
          scores[row + m] = 0;
          forced++;
          continue;
        }
        for (; next > m; next--) between.add(x, next);
        this.score(x, h, m, scores, row + m);
        scored++;
      }
      between.reset(x);
      next = h + 1;
      for (let i = j; i < q; i++) {
        const m = cells[i]! - row;
        if (m === h) continue;
        if (heads !== null && heads[m] === 1) {
          scores[row + m] = 0;
          forced++;
          continue;
        }
        for (; next < m; next++) between.add(x, next);
        this.score(x, h, m, scores, row + m);
        scored++;
      }
    }
    this.scored = scored;
    this.forced = forced;
    return scores;
  }

  /** How many of the allowed cells are in each modifier's column (saturating at 2), in `this.heads[1..n]`. */
  private countHeads(cells: Int32Array, found: number, size: number): Uint8Array {
    if (this.heads.length < size) this.heads = new Uint8Array(size * 2);
    const heads = this.heads;
    heads.fill(0, 0, size);
    for (let i = 0; i < found; i++) {
      const m = cells[i]! % size;
      heads[m] = heads[m] === 0 ? 1 : 2;
    }
    return heads;
  }

  /**
   * Starts sentence x for `scoreArcInto`: forgets the unigram sums of the sentence before. With
   * `sparse` (few arcs per token) they are made per direction/distance bin as needed.
   */
  begin(x: FeatureSentence, sparse: boolean): void {
    const size = x.n + 1;
    if (this.headCache.length < size * 32) {
      this.headCache = new Float64Array(size * 64);
      this.modCache = new Float64Array(size * 64);
    }
    this.headCache.fill(Number.NaN, 0, size * 32);
    this.modCache.fill(Number.NaN, 0, size * 32);
    if (this.baseSum.length < size * 2) {
      this.baseSum = new Float64Array(size * 4);
      this.baseIdx = new Int32Array(size * 4 * BASE_FEATURES);
    }
    this.baseSum.fill(Number.NaN, 0, size * 2);
    this.perBin = sparse;
  }

  /**
   * Writes to out[at] the score of arc h→m of the sentence last given to `begin`, as `scoreAll` would
   * (the tags between h and m are gathered here; cheap for short arcs).
   */
  scoreArcInto(x: FeatureSentence, h: number, m: number, out: Float64Array, at: number): void {
    this.between.fill(x, h, m);
    this.score(x, h, m, out, at);
  }

  /**
   * Fills `cache[i * 32 + di]` with the sum of the unigram weights of position i on one side of an arc
   * with direction/distance dd, unless the sentence already did. (Results go through typed arrays, not
   * return values: a double returned from a call the JIT does not inline is boxed in a heap number.)
   * With integer weights, the first call for a position fills all its 16 direction/distance bins at
   * once (`fillBins`): each conjoined index is its base index XOR the bin's key (`put`), in the base
   * weight's cache line, so the other bins cost cache hits instead of a hashing and a miss each;
   * integer sums are exact in any order, so the scores are the same. Float weights (training) keep
   * the per-bin sums, in feature order.
   */
  private unigram(
    cache: Float64Array,
    x: FeatureSentence,
    i: number,
    side: number,
    dd: number,
    di: number,
  ): void {
    const s = cache[i * 32 + di]!;
    if (s !== s) {
      const w = this.weights;
      if (w instanceof Int16Array && this.perBin) {
        this.fillBin(w, x, i, side, di, cache);
        return;
      }
      const buf = this.buf;
      unigramFeatures(x, i, side, dd, buf, 0, w.length - 1);
      if (w instanceof Int16Array) fillBins(w, buf, cache, i * 32);
      else {
        let t = 0;
        for (let j = 0; j < UNIGRAM_FEATURES; j++) t += w[buf[j]!]!;
        cache[i * 32 + di] = t;
      }
    }
  }

  /**
   * Fills cache[i * 32 + di] alone (as `fillBins` would with the others): the sum of the base unigram
   * weights of position i on one side, kept with their indices the first time the position is asked
   * for, plus the weights of those indices conjoined with bin di.
   */
  private fillBin(
    w: Int16Array,
    x: FeatureSentence,
    i: number,
    side: number,
    di: number,
    cache: Float64Array,
  ): void {
    const slot = 2 * i + (side === HEAD_SIDE ? 0 : 1);
    const idx = this.baseIdx;
    const o = slot * BASE_FEATURES;
    let t = this.baseSum[slot]!;
    if (t !== t) {
      const buf = this.buf;
      // Any direction/distance will do: only the base indices (at even places) are read.
      unigramFeatures(x, i, side, 0x100 | 1, buf, 0, w.length - 1);
      t = 0;
      for (let j = 0; j < BASE_FEATURES; j++) {
        const f = buf[2 * j]!;
        idx[o + j] = f;
        t += w[f]!;
      }
      this.baseSum[slot] = t;
    }
    for (let j = 0; j < BASE_FEATURES; j++) t += w[idx[o + j]! ^ di]!;
    cache[i * 32 + di] = t;
  }

  /** Writes the score of arc h→m to out[at], with `this.between` holding the tags strictly between them. */
  private score(x: FeatureSentence, h: number, m: number, out: Float64Array, at: number): void {
    const w = this.weights;
    const wmask = w.length - 1;
    const buf = this.buf;
    const dd = dirDist(h, m);
    const di = dirDistIndex(dd);
    this.unigram(this.headCache, x, h, HEAD_SIDE, dd, di);
    this.unigram(this.modCache, x, m, MODIFIER_SIDE, dd, di);
    let s = this.headCache[h * 32 + di]! + this.modCache[m * 32 + di]!;
    const k = pairFeatures(x, h, m, dd, this.between, buf, 0, wmask, this.coarse);
    for (let i = 0; i < k; i++) s += w[buf[i]!]!;
    out[at] = s * this.scale;
  }
}

/** Number of base (unconjoined) unigram features of one side of an arc. */
const BASE_FEATURES = UNIGRAM_FEATURES / 2;

/**
 * Writes to cache[o + di], for every direction/distance bin di (1…8: head left, 17…24: head right),
 * the sum of the unigram weights whose indices `unigramFeatures` wrote to buf (base indices at even
 * places; a bin's conjoined index is its base index XOR di, in the same cache line).
 */
function fillBins(w: Int16Array, buf: Int32Array, cache: Float64Array, o: number): void {
  let base = 0;
  for (let j = 0; j < UNIGRAM_FEATURES; j += 2) base += w[buf[j]!]!;
  for (let d = 0; d < 2; d++)
    for (let bin = 1; bin <= 8; bin++) {
      const b = (d << 4) | bin;
      let t = base;
      for (let j = 0; j < UNIGRAM_FEATURES; j += 2) t += w[buf[j]! ^ b]!;
      cache[o + b] = t;
    }
}
