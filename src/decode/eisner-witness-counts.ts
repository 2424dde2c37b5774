import type { ArcMask } from "../mask/arc-mask.js";
import { DEAD_ITEM, MaxPlusHypergraph, UNIT_ITEM } from "./max-plus-hypergraph.js";
import type { FirstOrderOptions } from "./types.js";

const NEG = Number.NEGATIVE_INFINITY;

/** First-order projective max-marginals with witness counts; arrays are views valid until the next call. */
export interface FirstOrderWitnesses {
  /** marginals[h · (n + 1) + m]: best projective tree score containing arc h→m; -Infinity if none. */
  marginals: Float64Array;
  /**
   * counts[h · (n + 1) + m]: number of arcs a (finite max-marginal) whose witness y*_a (the best tree
   * containing a) contains arc h→m, so that Σ_a φ(y*_a) = Σ_arcs counts · φ(arc).
   */
  counts: Int32Array;
  /** Best tree score; -Infinity when the mask admits no tree (then every marginal is -Infinity). */
  best: number;
  /** The best tree (heads[m], heads[0] = -1; all -1 when there is none). */
  heads: Int32Array;
  /** Number of arcs with a finite max-marginal. */
  parts: number;
  /** Their mean max-marginal (equals `best` when there are none). */
  mean: number;
}

/**
 * First-order projective max-marginals (as `EisnerMaxMarginals`, single-rooted by default) together with
 * witness counts, for training a structured prediction cascade (Weiss & Taskar 2010): the subgradient
 * of its threshold needs Σ_a φ(y*_a) over the arcs a, y*_a the best tree containing a. Eisner's chart
 * is built as a max-plus hypergraph holding only items and hyperedges that have a derivation under
 * the mask; inside, outside and the counting passes are each linear in its size, O(n³) at worst.
 * Arcs the mask prunes are never read. Keeps its buffers between sentences.
 */
export class EisnerWitnessCounts {
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  private readonly hg = new MaxPlusHypergraph();
  private cmp = new Int32Array(0);
  private inc = new Int32Array(0);
  private partBuf = new Int32Array(0);

  constructor(options: FirstOrderOptions = {}) {
    this.singleRoot = options.singleRoot ?? true;
  }

  /** Max-marginals, witness counts and best tree of a sentence of n tokens. */
  compute(n: number, scores: Float64Array, mask: ArcMask | null): FirstOrderWitnesses {
    const size = n + 1;
    const cells = size * size;
    if (scores.length < cells)
      throw new Error(`witness counts: scores has ${scores.length} cells, need ${cells}`);
    if (mask !== null && mask.n !== n)
      throw new Error(`witness counts: mask has ${mask.n} tokens, sentence ${n}`);
    const hg = this.hg;
    hg.reset(cells);
    const score = hg.score;
    const bits = mask === null ? null : mask.bits;
    for (let h = 0; h <= n; h++) {
      const row = h * size;
      score[row] = NEG;
      for (let m = 1; m <= n; m++) {
        const a = row + m;
        score[a] = m !== h && (bits === null || bits[a] === 1) ? scores[a]! : NEG;
      }
    }
    const heads = new Int32Array(size).fill(-1);
    const goal = n === 0 ? DEAD_ITEM : this.fill(n, cells);
    let best = n === 0 ? 0 : NEG;
    if (goal !== DEAD_ITEM) {
      best = hg.inside[goal]!;
      hg.outside(goal);
      hg.maxMarginals();
      hg.witnessCounts(goal);
      if (this.partBuf.length < size) this.partBuf = new Int32Array(size);
      const k = hg.bestParts(goal, this.partBuf);
      for (let i = 0; i < k; i++) {
        const p = this.partBuf[i]!;
        const h = Math.floor(p / size);
        heads[p - h * size] = h;
      }
    } else {
      hg.marginal.fill(NEG, 0, cells);
      hg.count.fill(0, 0, cells);
    }
    const mm = hg.marginal;
    let parts = 0;
    let sum = 0;
    for (let a = 0; a < cells; a++) {
      const v = mm[a]!;
      if (v > NEG) {
        parts++;
        sum += v;
      }
    }
    return {
      marginals: mm.subarray(0, cells),
      counts: hg.count.subarray(0, cells),
      best,
      heads,
      parts,
      mean: parts > 0 ? sum / parts : best,
    };
  }

  /** Builds Eisner's chart as a hypergraph; returns the goal item (or DEAD_ITEM). */
  private fill(n: number, Z: number): number {
    const size = n + 1;
    const cells = size * size;
    if (this.cmp.length < cells) {
      this.cmp = new Int32Array(cells);
      this.inc = new Int32Array(cells);
    }
    const C = this.cmp;
    const I = this.inc;
    const hg = this.hg;
    const score = hg.score;
    const U = UNIT_ITEM;
    const D = DEAD_ITEM;
    const lo = this.singleRoot ? 1 : 0;
    for (let i = lo; i <= n; i++) C[i * size + i] = U;
    for (let w = 1; w <= n - lo; w++) {
      for (let i = lo, j = lo + w; j <= n; i++, j++) {
        const ri = i * size;
        const rj = j * size;
        const ij = ri + j;
        const ji = rj + i;
        I[ij] = D;
        I[ji] = D;
        const uR = score[ij]! > NEG;
        const uL = score[ji]! > NEG;
        if (uR || uL) {
          // Shared split: C(i, r) + C(j, r + 1).
          hg.begin(w);
          for (let r = i; r < j; r++) hg.edge(C[ri + r]!, C[rj + r + 1]!, Z);
          const sp = hg.end();
          if (sp !== D) {
            if (uR) {
              hg.begin(1);
              hg.edge(sp, U, ij);
              I[ij] = hg.end();
            }
            if (uL) {
              hg.begin(1);
              hg.edge(sp, U, ji);
              I[ji] = hg.end();
            }
          }
        }
        // C(i→j) = I(i→m) + C(m→j); C(j→i) = C(m→i) + I(j→m).
        hg.begin(w);
        for (let m = i + 1; m <= j; m++) hg.edge(I[ri + m]!, C[m * size + j]!, Z);
        C[ij] = hg.end();
        hg.begin(w);
        for (let m = i; m < j; m++) hg.edge(C[m * size + i]!, I[rj + m]!, Z);
        C[ji] = hg.end();
      }
    }
    if (!this.singleRoot) return C[n]!;
    // Single root: 0→r over C(r→1) and C(r→n).
    hg.begin(n);
    for (let r = 1; r <= n; r++) hg.edge(C[r * size + 1]!, C[r * size + n]!, r);
    return hg.end();
  }
}
