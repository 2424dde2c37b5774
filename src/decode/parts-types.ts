/**
 * The contract between higher-order (sibling / grand-sibling) decoders and their callers: how part
 * scores are asked for, the decoding options and the result. Tokens are 1..n, 0 is the root.
 */

/**
 * Scores of second-order parts. `arc(h, m)` scores the arc h→m; `sib(h, s, m)` scores m having s as
 * its adjacent inner sibling on the same side of h (s = h when m is h's closest child on that side).
 * Decoders call each method at most once per part and sentence, and only for parts all of whose arcs
 * (h→m, and h→s when s ≠ h) the mask allows. Scores must be finite.
 */
export interface SiblingScorer {
  /** Score of arc h→m. */
  arc(h: number, m: number): number;
  /** Score of sibling part (h, s, m); s = h encodes "no inner sibling". */
  sib(h: number, s: number, m: number): number;
  /**
   * When true, decoders may score 0, without asking, the parts that every tree under the mask holds
   * alike: the sibling parts of a side of a head all of whose allowed modifiers there have no other
   * allowed head (that side's children and their order are fixed). Trees keep their order and their
   * scores move by one constant, so parsers and max-marginal passes set it; trainers, which need the
   * true score of the decoded tree, leave it unset.
   */
  readonly skipForced?: boolean;
}

/**
 * Scores of third-order grand-sibling parts (Koo & Collins 2010, Model 1) on top of the sibling parts.
 * g is the head of h; for h = 0 (the root) g = -1. Called only when every arc of the part (g→h when
 * g ≥ 0, h→m, h→s when s ≠ h) is allowed, at most once per part and sentence. Scores must be finite.
 */
export interface GrandSiblingScorer extends SiblingScorer {
  /** Score of grandparent part (g, h, m): arcs g→h and h→m. */
  grand(g: number, h: number, m: number): number;
  /** Score of grand-sibling part (g, h, s, m); s = h encodes "no inner sibling". */
  gsib(g: number, h: number, s: number, m: number): number;
}

/** Options of a higher-order decode. */
export interface HigherOrderOptions {
  /** The root takes exactly one child (UD); default true. */
  singleRoot?: boolean;
  /** Where to write the heads (length ≥ n + 1); a new array is allocated when absent. */
  heads?: Int32Array;
}

/** Result of a higher-order decode. */
export interface HigherOrderParse {
  /** heads[m] for m = 1..n; heads[0] = -1. */
  heads: Int32Array;
  /** Total score of the tree under the decoder's factorization. */
  score: number;
  /** True when the mask admitted no projective tree and adjacent and root arcs were restored. */
  fallback: boolean;
  /** How many part scores were asked of the scorer (arcs + sibling + grand + grand-sibling parts). */
  partsScored: number;
}
