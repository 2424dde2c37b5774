import { finishBits, hashString, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { NO_SIBLING } from "./sibling.js";

/** Atom standing for the grandparent of a root child (g = -1: the head is the artificial root). */
export const NO_GRANDPARENT = hashString("<no-grandparent>");

/** Number of indices `grandFeatures` writes. */
export const GRAND_FEATURES = 9;
/** Number of indices `grandSiblingFeatures` writes. */
export const GRAND_SIBLING_FEATURES = 6;

/** Direction code of a (g, h, m) chain: g→h left/right/none (root head) × h→m left/right. */
export function grandDir(g: number, h: number, m: number): number {
  return ((g < 0 ? 3 : g < h ? 1 : 2) << 2) | (h < m ? 1 : 2);
}

/**
 * Features of grandparent part (g, h, m) (Koo & Collins 2010, Model 1): XPOS and UPOS tag triples,
 * triples with one word, grandparent–grandchild tag/word pairs, each conjoined with the direction code
 * of both arcs. g = -1 means h is the root. Writes `GRAND_FEATURES` indices into out[0…] (reduced by
 * `mask`) and returns that count.
 */
export function grandFeatures(
  x: FeatureSentence,
  g: number,
  h: number,
  m: number,
  out: Int32Array,
  mask: number,
): number {
  const dir = grandDir(g, h, m);
  const wg = g < 0 ? NO_GRANDPARENT : x.word[g]!;
  const pg = g < 0 ? NO_GRANDPARENT : x.xpos[g]!;
  const cg = g < 0 ? NO_GRANDPARENT : x.upos[g]!;
  const ph = x.xpos[h]!;
  const pm = x.xpos[m]!;
  const wm = x.word[m]!;
  const cm = x.upos[m]!;
  out[0] = finishBits(mix(mix(mix(mix(201, pg), ph), pm), dir)) & mask;
  out[1] = finishBits(mix(mix(mix(mix(202, cg), x.upos[h]!), cm), dir)) & mask;
  out[2] = finishBits(mix(mix(mix(mix(203, wg), ph), pm), dir)) & mask;
  out[3] = finishBits(mix(mix(mix(mix(204, pg), x.word[h]!), pm), dir)) & mask;
  out[4] = finishBits(mix(mix(mix(mix(205, pg), ph), wm), dir)) & mask;
  out[5] = finishBits(mix(mix(mix(206, pg), pm), dir)) & mask;
  out[6] = finishBits(mix(mix(mix(207, cg), cm), dir)) & mask;
  out[7] = finishBits(mix(mix(mix(208, wg), pm), dir)) & mask;
  out[8] = finishBits(mix(mix(mix(209, pg), wm), dir)) & mask;
  return GRAND_FEATURES;
}

/**
 * Hash states of the grand-sibling templates of (g, h, ·, m) before the inner sibling is mixed in, so a
 * scorer can reuse them for every sibling s of one (g, h, m): XPOS and UPOS tag 4-grams, the
 * grandparent–sibling–modifier tag triple, and 4-grams with the modifier's, the head's or the
 * grandparent's word, each with the direction code. Writes `GRAND_SIBLING_FEATURES` states into `base`.
 */
export function grandSiblingBase(
  x: FeatureSentence,
  g: number,
  h: number,
  m: number,
  base: Int32Array,
): void {
  const dir = grandDir(g, h, m);
  const pg = g < 0 ? NO_GRANDPARENT : x.xpos[g]!;
  const ph = x.xpos[h]!;
  const pm = x.xpos[m]!;
  base[0] = mix(mix(mix(mix(301, pg), ph), pm), dir);
  base[1] = mix(mix(mix(mix(302, g < 0 ? NO_GRANDPARENT : x.upos[g]!), x.upos[h]!), x.upos[m]!), dir);
  base[2] = mix(mix(mix(303, pg), pm), dir);
  base[3] = mix(mix(mix(mix(304, pg), ph), x.word[m]!), dir);
  base[4] = mix(mix(mix(mix(305, pg), x.word[h]!), pm), dir);
  base[5] = mix(mix(mix(mix(306, g < 0 ? NO_GRANDPARENT : x.word[g]!), ph), pm), dir);
}

/** Finishes the grand-sibling templates with the sibling's XPOS/UPOS atoms (`NO_SIBLING` when s = h); writes out[0…]. */
export function grandSiblingFinish(
  base: Int32Array,
  ps: number,
  cs: number,
  out: Int32Array,
  mask: number,
): number {
  // Template 1 takes the sibling's UPOS, the others its XPOS; one loop keeps mix and finish inlined.
  for (let j = 0; j < GRAND_SIBLING_FEATURES; j++)
    out[j] = finishBits(mix(base[j]!, j === 1 ? cs : ps)) & mask;
  return GRAND_SIBLING_FEATURES;
}

const gsBase = new Int32Array(GRAND_SIBLING_FEATURES);

/**
 * Every feature index of grand-sibling part (g, h, s, m) (s = h: no inner sibling; g = -1: h is the
 * root), reduced by `mask`. Writes `GRAND_SIBLING_FEATURES` indices into out[0…] and returns that count.
 */
export function grandSiblingFeatures(
  x: FeatureSentence,
  g: number,
  h: number,
  s: number,
  m: number,
  out: Int32Array,
  mask: number,
): number {
  grandSiblingBase(x, g, h, m, gsBase);
  if (s === h) return grandSiblingFinish(gsBase, NO_SIBLING, NO_SIBLING, out, mask);
  return grandSiblingFinish(gsBase, x.xpos[s]!, x.upos[s]!, out, mask);
}
