import type { ArcMask } from "../prune/arc-mask.js";
import { DEAD_ITEM, MaxPlusHypergraph, UNIT_ITEM } from "./max-plus-hypergraph.js";
import { checkBand, VINE_LEFT, VINE_RIGHT } from "./vine-structure.js";

const NEG = Number.NEGATIVE_INFINITY;

/** Options of the vine parser. */
export interface VineOptions {
  /** Band b ≥ 1: arcs between tokens at most b apart are short; longer ones become outer arcs. */
  band: number;
  /** The root takes exactly one child (UD); default true. */
  singleRoot?: boolean;
}

/** Scores of one sentence in the vine layout (see vine-structure.ts); `VineScores` is one. */
export interface VineScoreArrays {
  /** short[m · 2b + slot], length ≥ (n + 1) · 2b. */
  short: Float64Array;
  /** root[m], length ≥ n + 1. */
  root: Float64Array;
  /** outer[2m] (left), outer[2m + 1] (right), length ≥ 2(n + 1). */
  outer: Float64Array;
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
  /** Number of parts (short, root and outer arcs) with a finite max-marginal. */
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
 * Dynamic program: Eisner's spans restricted to width ≤ b (O(n·b²)), plus linear chains over
 * fragments: Q(h) = best prefix whose last fragment has h's left half complete, P(x) = best prefix
 * whose last fragment's right spine reaches x, in a few states (root arcs used: 0 / 1 or more; first
 * fragment; last head attached by a right outer arc). Time and memory O(n·b²). Keeps its buffers
 * between sentences; one instance must not be shared between concurrent callers.
 */
export class VineParser {
  /** Band b. */
  readonly band: number;
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  private readonly hg = new MaxPlusHypergraph();
  private tab = new Int32Array(0);
  private partBuf = new Int32Array(0);
  private goal = DEAD_ITEM;

  constructor(options: VineOptions) {
    checkBand(options.band);
    this.band = options.band;
    this.singleRoot = options.singleRoot ?? true;
  }

  /** The best vine structure of n tokens using only usable parts, and its score. */
  decode(n: number, scores: VineScoreArrays, mask: ArcMask | null): VineParse {
    const heads = new Int32Array(n + 1).fill(-1);
    if (n === 0) return { heads, score: 0 };
    this.build(n, scores, mask);
    if (this.goal === DEAD_ITEM) return { heads, score: NEG };
    this.readBest(n, heads);
    return { heads, score: this.hg.inside[this.goal]! };
  }

  /**
   * Max-marginals of every short, root and outer arc (max-plus inside–outside over the vine chart),
   * the best structure, and with `witness` the witness counts; O(n·b²) either way.
   */
  maxMarginals(
    n: number,
    scores: VineScoreArrays,
    mask: ArcMask | null,
    options: { witness?: boolean } = {},
  ): VineMaxMarginals {
    const b = this.band;
    const hg = this.hg;
    const heads = new Int32Array(n + 1).fill(-1);
    const W = 2 * b;
    const r0 = (n + 1) * W;
    const o0 = r0 + n + 1;
    const parts = o0 + 2 * (n + 1);
    if (n === 0) hg.reset(parts);
    else this.build(n, scores, mask);
    const goal = n === 0 ? DEAD_ITEM : this.goal;
    let best = n === 0 ? 0 : NEG;
    if (goal !== DEAD_ITEM) {
      best = hg.inside[goal]!;
      hg.outside(goal);
      hg.maxMarginals();
      this.readBest(n, heads);
    } else {
      hg.marginal.fill(NEG, 0, parts + 1);
    }
    const mm = hg.marginal;
    let count = 0;
    let sum = 0;
    for (let p = 0; p < parts; p++) {
      const v = mm[p]!;
      if (v > NEG) {
        count++;
        sum += v;
      }
    }
    let witness: VineWitnessCounts | null = null;
    if (options.witness === true) {
      if (goal !== DEAD_ITEM) hg.witnessCounts(goal);
      else hg.count.fill(0, 0, parts + 1);
      const c = hg.count;
      witness = { short: c.subarray(0, r0), root: c.subarray(r0, o0), outer: c.subarray(o0, parts) };
    }
    return {
      n,
      band: b,
      best,
      heads,
      short: mm.subarray(0, r0),
      root: mm.subarray(r0, o0),
      outer: mm.subarray(o0, parts),
      parts: count,
      mean: count > 0 ? sum / count : best,
      witness,
    };
  }

  /** Vine heads of the best structure found by the last `build`. */
  private readBest(n: number, heads: Int32Array): void {
    const b = this.band;
    const W = 2 * b;
    const r0 = (n + 1) * W;
    const o0 = r0 + n + 1;
    if (this.partBuf.length < n + 1) this.partBuf = new Int32Array(n + 1);
    const k = this.hg.bestParts(this.goal, this.partBuf);
    for (let i = 0; i < k; i++) {
      const p = this.partBuf[i]!;
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

  /** Copies usable part scores into the hypergraph and builds (and scores) the vine chart. */
  private build(n: number, scores: VineScoreArrays, mask: ArcMask | null): void {
    const b = this.band;
    const W = 2 * b;
    const size = n + 1;
    const r0 = size * W;
    const o0 = r0 + size;
    const parts = o0 + 2 * size;
    if (scores.short.length < r0 || scores.root.length < size || scores.outer.length < 2 * size)
      throw new Error(`vine: score arrays too short for ${n} tokens and band ${b}`);
    const bits = mask === null ? null : mask.bits;
    if (mask !== null && mask.n !== n) throw new Error(`vine: mask has ${mask.n} tokens, sentence ${n}`);
    const hg = this.hg;
    hg.reset(parts);
    const score = hg.score;
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
    for (let m = 1; m <= n; m++) {
      score[r0 + m] = bits === null || bits[m] === 1 ? scores.root[m]! : NEG;
      score[o0 + 2 * m] = anyAllowed(bits, size, 1, m - b - 1, m) ? scores.outer[2 * m]! : NEG;
      score[o0 + 2 * m + 1] = anyAllowed(bits, size, m + b + 1, n, m) ? scores.outer[2 * m + 1]! : NEG;
    }
    this.goal = this.fill(n, parts, r0, o0);
  }

  /** Builds the chart items in topological order; returns the goal item (or DEAD_ITEM). */
  private fill(n: number, Z: number, r0: number, o0: number): number {
    const b = this.band;
    const W = 2 * b;
    const size = n + 1;
    const hg = this.hg;
    const score = hg.score;
    const U = UNIT_ITEM;
    const D = DEAD_ITEM;
    // Span tables, b entries per position: complete spans of width 0..b-1 (CR right, CL left) and
    // incomplete spans of width 1..b (IR arc i→i+w, IL arc j→j-w); then the vine chains.
    const rowsB = size * b;
    const CR = 0;
    const CL = rowsB;
    const IR = 2 * rowsB;
    const IL = 3 * rowsB;
    const QF = 4 * rowsB;
    const Q0 = QF + size;
    const Q1 = Q0 + size;
    const PN0 = Q1 + size;
    const PN1 = PN0 + size;
    const PR0 = PN1 + size;
    const PR1 = PR0 + size;
    const V0 = PR1 + size;
    const V1 = V0 + size;
    const need = V1 + size;
    if (this.tab.length < need) this.tab = new Int32Array(Math.max(need, Math.ceil(this.tab.length * 1.5)));
    const t = this.tab;
    const bb = Math.min(b, n - 1);
    for (let i = 1; i <= n; i++) {
      t[CR + i * b] = U;
      t[CL + i * b] = U;
    }
    for (let w = 1; w <= bb; w++) {
      for (let i = 1, j = 1 + w; j <= n; i++, j++) {
        const pR = j * W + (i - j + b);
        const pL = i * W + (j - i + b - 1);
        let ir = D;
        let il = D;
        const uR = score[pR]! > NEG;
        const uL = score[pL]! > NEG;
        if (uR || uL) {
          // Shared split of I(i→j) and I(j→i): C(i, r) + C(j, r + 1).
          hg.begin();
          for (let r = i; r < j; r++) hg.edge(t[CR + i * b + r - i]!, t[CL + j * b + j - r - 1]!, Z);
          const sp = hg.end();
          if (sp !== D) {
            if (uR) {
              hg.begin();
              hg.edge(sp, U, pR);
              ir = hg.end();
            }
            if (uL) {
              hg.begin();
              hg.edge(sp, U, pL);
              il = hg.end();
            }
          }
        }
        t[IR + i * b + w - 1] = ir;
        t[IL + j * b + w - 1] = il;
        if (w < b) {
          // C(i→j) = I(i→m) + C(m→j); C(j→i) = C(m→i) + I(j→m).
          hg.begin();
          for (let m = i + 1; m <= j; m++) hg.edge(t[IR + i * b + m - i - 1]!, t[CR + m * b + j - m]!, Z);
          t[CR + i * b + w] = hg.end();
          hg.begin();
          for (let m = i; m < j; m++) hg.edge(t[CL + m * b + m - i]!, t[IL + j * b + j - m - 1]!, Z);
          t[CL + j * b + w] = hg.end();
        }
      }
    }
    const single = this.singleRoot;
    for (let h = 1; h <= n; h++) {
      const lo = Math.max(1, h - bb);
      const ilRow = IL + h * b - 1;
      // QF: first fragment (starts at token 1), h's left half complete.
      hg.begin();
      if (h === 1) hg.edge(U, U, Z);
      for (let m = lo; m < h; m++) hg.edge(t[QF + m]!, t[ilRow + h - m]!, Z);
      t[QF + h] = hg.end();
      // Q0, Q1: a later fragment (starts after a complete prefix with 0 / ≥ 1 root arcs).
      if (h >= 2) {
        const lo2 = Math.max(2, lo);
        hg.begin();
        hg.edge(t[V0 + h - 1]!, U, Z);
        for (let m = lo2; m < h; m++) hg.edge(t[Q0 + m]!, t[ilRow + h - m]!, Z);
        t[Q0 + h] = hg.end();
        hg.begin();
        hg.edge(t[V1 + h - 1]!, U, Z);
        for (let m = lo2; m < h; m++) hg.edge(t[Q1 + m]!, t[ilRow + h - m]!, Z);
        t[Q1 + h] = hg.end();
      } else {
        t[Q0 + h] = D;
        t[Q1 + h] = D;
      }
      const left = o0 + 2 * h;
      const right = left + 1;
      const root = r0 + h;
      const qf = t[QF + h]!;
      const q0 = t[Q0 + h]!;
      const q1 = t[Q1 + h]!;
      // P: the last fragment's right spine reaches h (PN: its head not attached by a right outer arc).
      hg.begin();
      hg.edge(q0, U, left);
      this.chain(PN0, h, lo, IR);
      t[PN0 + h] = hg.end();
      hg.begin();
      hg.edge(q1, U, left);
      hg.edge(q0, U, root);
      hg.edge(qf, U, root);
      if (!single) hg.edge(q1, U, root);
      this.chain(PN1, h, lo, IR);
      t[PN1 + h] = hg.end();
      hg.begin();
      hg.edge(q0, U, right);
      hg.edge(qf, U, right);
      this.chain(PR0, h, lo, IR);
      t[PR0 + h] = hg.end();
      hg.begin();
      hg.edge(q1, U, right);
      this.chain(PR1, h, lo, IR);
      t[PR1 + h] = hg.end();
      // V: complete prefix 1..h (its last fragment closed at h).
      if (h < n) {
        hg.begin();
        hg.edge(t[PN0 + h]!, U, Z);
        hg.edge(t[PR0 + h]!, U, Z);
        t[V0 + h] = hg.end();
        hg.begin();
        hg.edge(t[PN1 + h]!, U, Z);
        hg.edge(t[PR1 + h]!, U, Z);
        t[V1 + h] = hg.end();
      }
    }
    return t[PN1 + n]!;
  }

  /** Edges P(h) ← P(x) + I(x→h) for x in lo..h-1 of the P family at offset `fam`. */
  private chain(fam: number, h: number, lo: number, IR: number): void {
    const t = this.tab;
    const b = this.band;
    const hg = this.hg;
    const Z = hg.parts;
    for (let x = lo; x < h; x++) hg.edge(t[fam + x]!, t[IR + x * b + h - x - 1]!, Z);
  }
}

/** Whether some arc h→m with lo ≤ h ≤ hi is allowed (every one when bits is null). */
function anyAllowed(bits: Uint8Array | null, size: number, lo: number, hi: number, m: number): boolean {
  if (lo > hi) return false;
  if (bits === null) return true;
  for (let h = lo; h <= hi; h++) if (bits[h * size + m] === 1) return true;
  return false;
}
