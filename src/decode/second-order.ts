import type { ArcMask } from "../mask/arc-mask.js";
import { withAdjacentArcs } from "./parts-mask.js";
import type { HigherOrderOptions, HigherOrderParse, SiblingScorer } from "./parts-types.js";
import { SiblingChart } from "./sibling-chart.js";

/**
 * Second-order projective decoder with sibling parts (McDonald & Pereira 2006): Eisner-style dynamic
 * program over complete, incomplete and sibling spans (`SiblingChart`), restricted to the arcs a mask
 * allows and visiting only the spans they can reach: O(n³) for a full mask, far less for a sparse one.
 * Each part is scored at most once per sentence, when the DP first reads it (`lazyParts`): pruned
 * parts never are, nor allowed parts that no reachable spans combine.
 * One instance keeps its tables between sentences (not reentrant).
 */
export class SecondOrderDecoder {
  /**
   * Whether each part is asked for on its first use (default) rather than every allowed one before the
   * DP: the same tree and score, fewer parts scored (`SiblingParts`).
   */
  lazyParts = true;
  private readonly chart = new SiblingChart();

  /** Best projective tree of `mask.n` tokens under Σ arc + Σ sib; falls back to adjacent arcs if the mask admits none. */
  decode(mask: ArcMask, scorer: SiblingScorer, options: HigherOrderOptions = {}): HigherOrderParse {
    const singleRoot = options.singleRoot ?? true;
    const n = mask.n;
    const heads = options.heads ?? new Int32Array(n + 1);
    if (heads.length < n + 1) throw new RangeError(`heads array too short: ${heads.length} < ${n + 1}`);
    heads[0] = -1;
    if (n === 0) return { heads, score: 0, fallback: false, partsScored: 0 };
    const chart = this.chart;
    let fallback = false;
    if (!chart.build(mask, singleRoot)) {
      chart.build(withAdjacentArcs(mask), singleRoot);
      fallback = true;
    }
    if (this.lazyParts) chart.scoreLazily(scorer);
    else chart.score(scorer);
    let score: number;
    try {
      score = chart.inside();
    } finally {
      chart.parts.end();
    }
    const partsScored = chart.parts.asked;
    if (!(score > Number.NEGATIVE_INFINITY))
      throw new Error("SecondOrderDecoder: no tree found (internal error)");
    chart.backtrack(heads);
    return { heads, score, fallback, partsScored };
  }
}
