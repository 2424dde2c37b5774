import { finishBits, hashString, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { NO_SIBLING } from "./sibling.js";
import { mixTemplates, templateTable } from "./templates.js";

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
  fillGrandAtoms(x, g, h, m);
  return mixTemplates(GRAND_TEMPLATES, grandAtoms, out, 0, true, mask);
}

// Atom slots of a (g, h, m) chain for the grandparent and grand-sibling templates.
const G_WG = 0;
const G_PG = 1;
const G_CG = 2;
const G_WH = 3;
const G_PH = 4;
const G_CH = 5;
const G_WM = 6;
const G_PM = 7;
const G_CM = 8;
const G_DIR = 9;
const grandAtoms = new Int32Array(10);

/** Fills `grandAtoms` for chain g → h → m (g = -1: h is the root). */
function fillGrandAtoms(x: FeatureSentence, g: number, h: number, m: number): void {
  const a = grandAtoms;
  a[G_WG] = g < 0 ? NO_GRANDPARENT : x.word[g]!;
  a[G_PG] = g < 0 ? NO_GRANDPARENT : x.xpos[g]!;
  a[G_CG] = g < 0 ? NO_GRANDPARENT : x.upos[g]!;
  a[G_WH] = x.word[h]!;
  a[G_PH] = x.xpos[h]!;
  a[G_CH] = x.upos[h]!;
  a[G_WM] = x.word[m]!;
  a[G_PM] = x.xpos[m]!;
  a[G_CM] = x.upos[m]!;
  a[G_DIR] = grandDir(g, h, m);
}

const GRAND_TEMPLATES = templateTable([
  [201, G_PG, G_PH, G_PM, G_DIR],
  [202, G_CG, G_CH, G_CM, G_DIR],
  [203, G_WG, G_PH, G_PM, G_DIR],
  [204, G_PG, G_WH, G_PM, G_DIR],
  [205, G_PG, G_PH, G_WM, G_DIR],
  [206, G_PG, G_PM, G_DIR],
  [207, G_CG, G_CM, G_DIR],
  [208, G_WG, G_PM, G_DIR],
  [209, G_PG, G_WM, G_DIR],
]);

/** The grand-sibling templates' states before the sibling (see `grandSiblingBase`). */
const GRAND_SIBLING_BASE = templateTable([
  [301, G_PG, G_PH, G_PM, G_DIR],
  [302, G_CG, G_CH, G_CM, G_DIR],
  [303, G_PG, G_PM, G_DIR],
  [304, G_PG, G_PH, G_WM, G_DIR],
  [305, G_PG, G_WH, G_PM, G_DIR],
  [306, G_WG, G_PH, G_PM, G_DIR],
]);

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
  fillGrandAtoms(x, g, h, m);
  mixTemplates(GRAND_SIBLING_BASE, grandAtoms, base, 0, false, 0);
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
