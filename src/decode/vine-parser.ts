import type { ArcMask } from "../mask/arc-mask.js";
import { DEAD_ITEM, MaxPlusHypergraph } from "./max-plus-hypergraph.js";
import { VineChart } from "./vine-chart.js";
import { VineHypergraph } from "./vine-hypergraph.js";
import { checkBand, VINE_LEFT, VINE_RIGHT } from "./vine-structure.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Options of the vine parser. */
export interface VineOptions {
  /** Band b ≥ 1: arcs between tokens at most b apart are short; longer ones become outer arcs. */
  band: number;
  /** The root takes exactly one child (UD); default true. */
  singleRoot?: boolean;
  /**
   * Whether each outer arc comes with the head-side outer arc of a head beyond the band (see
   * `VineParser`), scored from `headOuter` of the score arrays; default false.
   */
  headOuter?: boolean;
}

/** Scores of one sentence in the vine layout (see vine-structure.ts); `VineScores` is one. */
export interface VineScoreArrays {
  /** short[m · 2b + slot], length ≥ (n + 1) · 2b. */
  short: Float64Array;
  /** root[m], length ≥ n + 1. */
  root: Float64Array;
  /** outer[2m] (left), outer[2m + 1] (right), length ≥ 2(n + 1). */
  outer: Float64Array;
  /** headOuter[2h] (left), headOuter[2h + 1] (right), length ≥ 2(n + 1); read with `headOuter` only. */
  headOuter?: Float64Array;
}

/** Best vine structure of a sentence. */
export interface VineParse {
  /** Vine heads (see vine-structure.ts); all -1 when the mask admits no vine structure. */
  heads: Int32Array;
  /** Its score; -Infinity when the mask admits no vine structure. */
  score: number;
}

/** Witness counts of every part, in the score layouts. */
export interface VineWitnessCounts {
  /** short[m · 2b + slot]. */
  short: Int32Array;
  /** root[m]. */
  root: Int32Array;
  /** outer[2m + side]. */
  outer: Int32Array;
  /** headOuter[2h + side] (all zero without head-side outer arcs). */
  headOuter: Int32Array;
}

/**
 * Max-marginals of every part of a sentence's vine structures, in the score layouts. The arrays are
 * views of the parser's buffers: valid until its next call.
 */
export interface VineMaxMarginals {
  /** Number of tokens. */
  n: number;
  /** Band b. */
  band: number;
  /** Score of the best vine structure (the largest max-marginal); -Infinity when there is none. */
  best: number;
  /** The best vine structure (vine heads; all -1 when there is none). */
  heads: Int32Array;
  /** Best structure score containing each short arc, short[m · 2b + slot]; -Infinity if none. */
  short: Float64Array;
  /** Same for each root arc, root[m]. */
  root: Float64Array;
  /** Same for each outer arc, outer[2m] (left), outer[2m + 1] (right). */
  outer: Float64Array;
  /**
   * Same for each head-side outer arc, headOuter[2h] (left), headOuter[2h + 1] (right); all -Infinity
   * without head-side outer arcs.
   */
  headOuter: Float64Array;
  /**
   * With head-side outer arcs: for each outer arc outer[2m + side], the head h whose head-side outer
   * arc it takes in the best structures containing it (-1 when unusable); the best structure's long
   * arcs are h→m for its outer arcs.
   */
  outerHead: Int32Array;
  /** Whether the structures carry head-side outer arcs (the parser's `headOuter`). */
  headSide: boolean;
  /** Number of parts (short, root, outer and head-side outer arcs) with a finite max-marginal. */
  parts: number;
  /** Mean max-marginal over those parts (equals `best` when there are none). */
  mean: number;
  /**
   * With `witness: true`: for every part p, the number of parts a (finite max-marginal) whose witness
   * y*_a (the best structure containing a) contains p, so that Σ_a φ(y*_a) = Σ_p count(p) · φ(p).
   */
  witness: VineWitnessCounts | null;
}

/**
 * First-order vine parser: the first pass of the vine-pruning cascade of Rush & Petrov (2012), after
 * the vine grammar of Eisner & Smith (2005). Parts are short arcs (length ≤ b), root arcs and outer
 * arcs (see vine-structure.ts). The structure set of a sentence of n tokens under a mask is every
 * assignment of one incoming part to each token such that
 *   1. every part is usable: allowed by the mask (an outer arc when at least one long arc it stands
 *      for is allowed) and scored above -Infinity;
 *   2. the Eisner–Smith vine tree (short arcs kept, a root arc 0→m for every root or outer arc into m)
 *      is a projective tree: the sentence splits into contiguous fragments, each a projective tree of
 *      short arcs whose head is attached by a root or outer arc;
 *   3. exactly one root arc with `singleRoot`, at least one without;
 *   4. the fragment containing token 1 has no left outer arc and the one containing token n no right
 *      outer arc (nothing lies outside them on that side).
 * Every tree whose vine tree is projective (every projective tree, and non-projective ones whose
 * crossing arcs are all long) maps into this set (`toVineStructure`), with the same root count and
 * usable parts when its arcs are allowed. The set is a relaxation: it also holds a few structures no
 * tree maps to, because whether the long arcs can be chosen without a cycle and from outside their
 * own fragment is a global property no linear-time dynamic program can check. With b ≥ n − 1 there
 * are no long arcs and the set is exactly the projective trees (first-order Eisner parsing).
 *
 * With `headOuter`, every outer arc of m is taken together with the head-side outer arc of one head h
 * beyond the band on its side for which h→m is allowed (h⇢ for ←m, h⇠ for →m): a long arc scores as
 * the sum of the outer arcs at its two ends. Several outer arcs may take the same head-side one (a head
 * with several long modifiers); whether the heads so chosen make a tree is, as for the outer arcs
 * alone, not checked. Every tree still maps into the set, with the head-side outer arcs of its long
 * arcs. The chart sees each outer arc with its best head-side partner; a head-side outer arc's
 * max-marginal is the best over the outer arcs it can pair with of the outer arc's max-marginal with
 * the partner exchanged (O(n²) with a mask, as finding usable outer arcs already is).
 *
 * Dynamic program: Eisner's spans restricted to width ≤ b (O(n·b²)), plus linear chains over
 * fragments: Q(h) = best prefix whose last fragment has h's left half complete, P(x) = best prefix
 * whose last fragment's right spine reaches x, in a few states (root arcs used: 0 / 1 or more; first
 * fragment; last head attached by a right outer arc). Time O(n·b²), memory O(n·b). With a mask,
 * finding the outer arcs that stand for an allowed long arc reads the mask's columns (O(n²) bytes at
 * worst). Keeps its buffers between sentences; one instance must not be shared between callers.
 */
export class VineParser {
  /** Band b. */
  readonly band: number;
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  private readonly chart: VineChart;
  private graph: VineHypergraph | null = null;
  private eff = new Float64Array(0);
  private mm = new Float64Array(0);
  private partBuf = new Int32Array(0);
  /** Whether structures carry head-side outer arcs. */
  readonly headOuter: boolean;
  /** Per outer arc: its best head-side partner's score and head (-1 = none). */
  private hBest = new Float64Array(0);
  private hArg = new Int32Array(0);
  /** Per head-side outer arc: max-marginal, witness count, the outer arc (part id) of its witness. */
  private hMm = new Float64Array(0);
  private hCount = new Int32Array(0);
  private hVia = new Int32Array(0);
  /** Witness weights of the chart's parts. */
  private weight = new Int32Array(0);

  constructor(options: VineOptions) {
    checkBand(options.band);
    this.band = options.band;
    this.singleRoot = options.singleRoot ?? true;
    this.headOuter = options.headOuter ?? false;
    this.chart = new VineChart(this.band, this.singleRoot);
  }

  /** The best vine structure of n tokens using only usable parts, and its score. */
  decode(n: number, scores: VineScoreArrays, mask: ArcMask | null): VineParse {
    const heads = new Int32Array(n + 1).fill(-1);
    if (n === 0) return { heads, score: 0 };
    this.effectiveScores(n, scores, mask);
    const best = this.chart.inside(n, this.eff);
    if (!(best > NEG)) return { heads, score: NEG };
    this.chart.backtrack(heads);
    return { heads, score: best };
  }

  /**
   * Max-marginals of every short, root and outer arc (max-plus inside–outside over the vine chart),
   * the best structure, and with `witness` the witness counts; O(n·b²) either way. Without `witness`
   * a specialised chart is used; with it, the same dynamic program built as a hypergraph (about three
   * times slower), whose back-pointers carry the witness counts.
   */
  maxMarginals(
    n: number,
    scores: VineScoreArrays,
    mask: ArcMask | null,
    options: { witness?: boolean } = {},
  ): VineMaxMarginals {
    const b = this.band;
    const heads = new Int32Array(n + 1).fill(-1);
    const W = 2 * b;
    const r0 = (n + 1) * W;
    const o0 = r0 + n + 1;
    const parts = o0 + 2 * (n + 1);
    if (n > 0) this.effectiveScores(n, scores, mask);
    const witnessed = options.witness === true;
    let mm: Float64Array;
    let counts: Int32Array | null = null;
    let best = n === 0 ? 0 : NEG;
    if (witnessed) {
      if (this.graph === null) this.graph = new VineHypergraph(new MaxPlusHypergraph(), b, this.singleRoot);
      const hg = this.graph.hg;
      hg.reset(parts);
      if (n > 0) hg.score.set(this.eff.subarray(0, parts));
      const goal = n === 0 ? DEAD_ITEM : this.graph.build(n, parts, r0, o0);
      if (goal !== DEAD_ITEM) {
        best = hg.inside[goal]!;
        hg.outside(goal);
        hg.maxMarginals();
        if (this.headOuter) {
          this.headMaxMarginals(n, mask, hg.marginal, o0, scores);
          hg.witnessCounts(goal, this.witnessWeights(n, parts));
        } else hg.witnessCounts(goal);
        if (this.partBuf.length < n + 1) this.partBuf = new Int32Array(n + 1);
        const k = hg.bestParts(goal, this.partBuf);
        partsToHeads(this.partBuf, k, b, r0, o0, heads);
      } else {
        hg.marginal.fill(NEG, 0, parts + 1);
        hg.count.fill(0, 0, parts + 1);
      }
      mm = hg.marginal;
      counts = hg.count;
    } else {
      if (this.mm.length < parts + 1)
        this.mm = new Float64Array(Math.max(parts + 1, Math.ceil(this.mm.length * 1.5)));
      mm = this.mm;
      mm.fill(NEG, 0, parts + 1);
      if (n > 0) {
        best = this.chart.inside(n, this.eff);
        if (best > NEG) {
          this.chart.outside(this.eff, mm);
          this.chart.backtrack(heads);
          if (this.headOuter) this.headMaxMarginals(n, mask, mm, o0, scores);
        }
      }
    }
    const size = n + 1;
    const headOk = this.headOuter && n > 0 && best > NEG;
    if (!headOk) {
      if (this.hMm.length < 2 * size) this.growHead(size);
      this.hMm.fill(NEG, 0, 2 * size);
      this.hCount.fill(0, 0, 2 * size);
      this.hArg.fill(-1, 0, 2 * size);
    }
    let count = 0;
    let sum = 0;
    for (let p = 0; p < parts; p++) {
      const v = mm[p]!;
      if (v > NEG) {
        count++;
        sum += v;
      }
    }
    if (headOk) {
      const hm = this.hMm;
      for (let i = 2; i < 2 * size; i++) {
        const v = hm[i]!;
        if (v > NEG) {
          count++;
          sum += v;
        }
      }
      if (counts !== null) this.headWitnessCounts(n, o0, counts);
    }
    return {
      n,
      band: b,
      best,
      heads,
      short: mm.subarray(0, r0),
      root: mm.subarray(r0, o0),
      outer: mm.subarray(o0, parts),
      headOuter: this.hMm.subarray(0, 2 * size),
      outerHead: this.hArg.subarray(0, 2 * size),
      headSide: this.headOuter,
      parts: count,
      mean: count > 0 ? sum / count : best,
      witness:
        counts === null
          ? null
          : {
              short: counts.subarray(0, r0),
              root: counts.subarray(r0, o0),
              outer: counts.subarray(o0, parts),
              headOuter: this.hCount.subarray(0, 2 * size),
            },
    };
  }

  private growHead(size: number): void {
    const cap = Math.max(2 * size, Math.ceil(this.hMm.length * 1.5));
    this.hBest = new Float64Array(cap);
    this.hArg = new Int32Array(cap);
    this.hMm = new Float64Array(cap);
    this.hCount = new Int32Array(cap);
    this.hVia = new Int32Array(cap);
  }

  /**
   * Each outer arc's best head-side partner (into hBest / hArg): the largest head-side outer score
   * among heads h beyond the band on its side with h→m allowed; -Infinity / -1 when there is none.
   */
  private headPartners(n: number, scores: VineScoreArrays, bits: Uint8Array | null): void {
    const size = n + 1;
    if (this.hMm.length < 2 * size) this.growHead(size);
    const hs = scores.headOuter;
    if (hs === undefined || hs.length < 2 * size)
      throw new Error(`vine: head-side outer scores missing or too short for ${n} tokens`);
    const b = this.band;
    const hBest = this.hBest;
    const hArg = this.hArg;
    hBest[0] = NEG;
    hBest[1] = NEG;
    hArg[0] = -1;
    hArg[1] = -1;
    for (let m = 1; m <= n; m++) {
      for (let side = 0; side < 2; side++) {
        const lo = side === 0 ? 1 : m + b + 1;
        const hi = side === 0 ? m - b - 1 : n;
        const flag = 1 - side;
        let best = NEG;
        let arg = -1;
        for (let h = lo; h <= hi; h++) {
          if (bits !== null && bits[h * size + m] === 0) continue;
          const v = hs[2 * h + flag]!;
          if (v > best || arg < 0) {
            best = v;
            arg = h;
          }
        }
        hBest[2 * m + side] = arg < 0 ? NEG : best;
        hArg[2 * m + side] = arg;
      }
    }
  }

  /**
   * Max-marginals of the head-side outer arcs from the outer arcs' (mm at o0 + 2m + side): for each
   * usable outer arc and each partner h it may take, the outer arc's max-marginal with h's score in
   * place of its best partner's; the best partner's is the outer arc's own, exactly.
   */
  private headMaxMarginals(
    n: number,
    mask: ArcMask | null,
    mm: Float64Array,
    o0: number,
    scores: VineScoreArrays,
  ): void {
    const size = n + 1;
    const b = this.band;
    const bits = mask === null ? null : mask.bits;
    const hs = scores.headOuter!;
    const hMm = this.hMm;
    const hVia = this.hVia;
    const hBest = this.hBest;
    const hArg = this.hArg;
    hMm.fill(NEG, 0, 2 * size);
    hVia.fill(-1, 0, 2 * size);
    for (let m = 1; m <= n; m++) {
      for (let side = 0; side < 2; side++) {
        const o = 2 * m + side;
        const v = mm[o0 + o]!;
        if (!(v > NEG)) continue;
        const lo = side === 0 ? 1 : m + b + 1;
        const hi = side === 0 ? m - b - 1 : n;
        const flag = 1 - side;
        const base = v - hBest[o]!;
        const arg = hArg[o]!;
        for (let h = lo; h <= hi; h++) {
          if (bits !== null && bits[h * size + m] === 0) continue;
          const f = 2 * h + flag;
          const c = h === arg ? v : base + hs[f]!;
          if (c > hMm[f]!) {
            hMm[f] = c;
            hVia[f] = o0 + o;
          }
        }
      }
    }
  }

  /** Witness weights of the chart's parts: 1, plus for an outer arc the head-side ones whose witness it carries. */
  private witnessWeights(n: number, parts: number): Int32Array {
    if (this.weight.length < parts + 1)
      this.weight = new Int32Array(Math.max(parts + 1, Math.ceil(this.weight.length * 1.5)));
    const w = this.weight;
    w.fill(1, 0, parts + 1);
    const hVia = this.hVia;
    for (let f = 2; f < 2 * (n + 1); f++) if (hVia[f]! >= 0) w[hVia[f]!] = w[hVia[f]!]! + 1;
    return w;
  }

  /**
   * Witness counts of the head-side outer arcs, given the chart's (weighted by `witnessWeights`): a
   * head-side outer arc is in every witness that holds an outer arc whose best partner it is, except
   * the extra witnesses of other head-side outer arcs carried by that outer arc, and in its own.
   */
  private headWitnessCounts(n: number, o0: number, counts: Int32Array): void {
    const size = n + 1;
    const hCount = this.hCount;
    const hArg = this.hArg;
    const hVia = this.hVia;
    const w = this.weight;
    hCount.fill(0, 0, 2 * size);
    for (let f = 2; f < 2 * size; f++) if (hVia[f]! >= 0) hCount[f] = 1;
    for (let o = 2; o < 2 * size; o++) {
      const h = hArg[o]!;
      const c = counts[o0 + o]!;
      if (h < 0 || c === 0) continue;
      const f = 2 * h + 1 - (o & 1);
      hCount[f] = hCount[f]! + c - (w[o0 + o]! - 1);
    }
  }

  /** Scores of usable parts (-Infinity for the others) in the part-id layout, into `eff`. */
  private effectiveScores(n: number, scores: VineScoreArrays, mask: ArcMask | null): void {
    const b = this.band;
    const W = 2 * b;
    const size = n + 1;
    const r0 = size * W;
    const o0 = r0 + size;
    const parts = o0 + 2 * size;
    if (scores.short.length < r0 || scores.root.length < size || scores.outer.length < 2 * size)
      throw new Error(`vine: score arrays too short for ${n} tokens and band ${b}`);
    if (mask !== null && mask.n !== n) throw new Error(`vine: mask has ${mask.n} tokens, sentence ${n}`);
    const bits = mask === null ? null : mask.bits;
    if (this.eff.length < parts + 1)
      this.eff = new Float64Array(Math.max(parts + 1, Math.ceil(this.eff.length * 1.5)));
    const score = this.eff;
    const short = scores.short;
    for (let p = 0; p < W; p++) score[p] = NEG;
    for (let m = 1; m <= n; m++) {
      const row = m * W;
      for (let slot = 0; slot < W; slot++) {
        const h = slot < b ? m - b + slot : m + slot - b + 1;
        score[row + slot] =
          h >= 1 && h <= n && (bits === null || bits[h * size + m] === 1) ? short[row + slot]! : NEG;
      }
    }
    score[r0] = NEG;
    score[o0] = NEG;
    score[o0 + 1] = NEG;
    if (this.headOuter) this.headPartners(n, scores, bits);
    const hBest = this.hBest;
    for (let m = 1; m <= n; m++) {
      score[r0 + m] = bits === null || bits[m] === 1 ? scores.root[m]! : NEG;
      if (this.headOuter) {
        // An outer arc with its best head-side partner (none: unusable).
        score[o0 + 2 * m] = hBest[2 * m]! > NEG ? scores.outer[2 * m]! + hBest[2 * m]! : NEG;
        score[o0 + 2 * m + 1] = hBest[2 * m + 1]! > NEG ? scores.outer[2 * m + 1]! + hBest[2 * m + 1]! : NEG;
      } else {
        score[o0 + 2 * m] = anyAllowed(bits, size, 1, m - b - 1, m) ? scores.outer[2 * m]! : NEG;
        score[o0 + 2 * m + 1] = anyAllowed(bits, size, m + b + 1, n, m) ? scores.outer[2 * m + 1]! : NEG;
      }
    }
    score[parts] = 0;
  }
}

/** Vine heads from the part ids of a structure. */
function partsToHeads(
  ids: Int32Array,
  k: number,
  b: number,
  r0: number,
  o0: number,
  heads: Int32Array,
): void {
  const W = 2 * b;
  for (let i = 0; i < k; i++) {
    const p = ids[i]!;
    if (p < r0) {
      const m = Math.floor(p / W);
      const slot = p - m * W;
      heads[m] = slot < b ? m - b + slot : m + slot - b + 1;
    } else if (p < o0) {
      heads[p - r0] = 0;
    } else {
      const q = p - o0;
      heads[q >> 1] = (q & 1) === 0 ? VINE_LEFT : VINE_RIGHT;
    }
  }
}

/** Whether some arc h→m with lo ≤ h ≤ hi is allowed (every one when bits is null). */
function anyAllowed(bits: Uint8Array | null, size: number, lo: number, hi: number, m: number): boolean {
  if (lo > hi) return false;
  if (bits === null) return true;
  for (let h = lo; h <= hi; h++) if (bits[h * size + m] === 1) return true;
  return false;
}
