/**
 * The contract between first-order decoders and their callers. Scores are a flat `Float64Array` of
 * length (n + 1)²: `scores[h * (n + 1) + m]` is the score of arc h→m (0 = artificial root, tokens 1..n).
 * An arc is usable when the mask allows it (a null mask allows every arc) and its score is not -Infinity;
 * decoders never read the score of an arc the mask prunes. Scores must not be NaN.
 */
import type { ArcMask } from "../mask/arc-mask.js";

/** Result of a first-order decode. */
export interface DecodeResult {
  /** heads[m] for m = 1..n; heads[0] = -1. */
  heads: Int32Array;
  /** Sum of the scores of the tree's arcs; arcs restored by a fallback count 0. */
  score: number;
  /** True when the mask admitted no tree and root and adjacent arcs had to be restored. */
  fallback: boolean;
}

/** Options shared by first-order decoders. */
export interface FirstOrderOptions {
  /** The root takes exactly one child (UD); default true. */
  singleRoot?: boolean;
}

/** A first-order (arc-factored) decoder: the best tree under arc scores, restricted to a mask. */
export interface FirstOrderDecoder {
  /** Short name, as accepted by `createFirstOrderDecoder`. */
  readonly name: FirstOrderDecoderName;
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  /** The highest-scoring tree of n tokens using only usable arcs (falling back when there is none). */
  decode(n: number, scores: Float64Array, mask: ArcMask | null): DecodeResult;
}

/** Names of the first-order decoders: projective Eisner or non-projective maximum spanning tree. */
export type FirstOrderDecoderName = "eisner" | "mst";
