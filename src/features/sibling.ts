import { finishBits, hashString, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { mixTemplates, templateTable } from "./templates.js";

/** Atom standing for the missing inner sibling (part (h, h, m): m is h's closest child on its side). */
export const NO_SIBLING = hashString("<no-sibling>");

/** Number of indices `siblingPairFeatures` writes. */
export const SIBLING_PAIR_FEATURES = 19;
/** Number of indices `siblingTripleFeatures` writes. */
export const SIBLING_TRIPLE_FEATURES = 9;
/** Number of indices `siblingFeatures` writes for any part. */
export const SIBLING_FEATURES = SIBLING_PAIR_FEATURES + SIBLING_TRIPLE_FEATURES;

/** Distance bin 1..5 exact, 6 for 6–10, 7 beyond. */
function distBin(d: number): number {
  return d <= 5 ? d : d <= 10 ? 6 : 7;
}

// Atom slots of the pair templates (see `pairCore`).
const WS_ = 0;
const FS_ = 1;
const PS_ = 2;
const CS_ = 3;
const US_ = 4;
const PIN_ = 5;
const PSOUT_ = 6;
const WM_ = 7;
const PM_ = 8;
const CM_ = 9;
const POUT_ = 10;
const PMIN_ = 11;
const FM_ = 12;
const SM_ = 13;
const DIR_ = 14;
const DD_ = 15;
const pairAtoms = new Int32Array(16);

// prettier-ignore
/** Pair templates: hash seed, then the atoms mixed in, in order. */
const PAIR_TEMPLATES = templateTable([
  [101, PS_, PM_, DIR_],
  [102, PS_, PM_, DD_],
  [103, CS_, CM_, DD_],
  [104, WS_, WM_, DIR_],
  [105, WS_, PM_, DIR_],
  [106, PS_, WM_, DIR_],
  [107, WS_, WM_, PM_, DD_],
  [108, PS_, PIN_, PM_, DIR_],
  [109, PS_, PM_, POUT_, DIR_],
  [110, CS_, CM_, DIR_],
  [117, FS_, FM_, DIR_],
  [118, CS_, PM_, DIR_],
  [119, PS_, CM_, DIR_],
  [120, PS_, PM_, PMIN_, DIR_],
  [121, PS_, PM_, PMIN_, POUT_, DIR_],
  [122, PS_, PIN_, PM_, PMIN_, DIR_],
  [123, PS_, PSOUT_, PM_, DIR_],
  [124, US_, PM_, DIR_],
  [125, PS_, SM_, DIR_],
]);

/**
 * Features of the sibling pair alone (McDonald & Pereira 2006): tags, words, prefixes and suffixes of the
 * inner sibling (atoms ws/fs/ps/cs/us, `NO_SIBLING` when there is none) and of the modifier m, conjoined
 * with direction and the binned s–m distance `dd`, UPOS/XPOS mixes, plus the tags around the pair: `pin`
 * just inside the sibling (toward m), `pout` just beyond the sibling (away from m), and the tags just
 * inside and just beyond m. Writes `SIBLING_PAIR_FEATURES` indices at out[k…].
 */
function pairCore(
  ws: number,
  fs: number,
  ps: number,
  cs: number,
  us: number,
  pin: number,
  psOut: number,
  x: FeatureSentence,
  m: number,
  dir: number,
  dd: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const at = pairAtoms;
  at[WS_] = ws;
  at[FS_] = fs;
  at[PS_] = ps;
  at[CS_] = cs;
  at[US_] = us;
  at[PIN_] = pin;
  at[PSOUT_] = psOut;
  at[WM_] = x.word[m]!;
  at[PM_] = x.xpos[m]!;
  at[CM_] = x.upos[m]!;
  at[POUT_] = x.xpos[dir === 1 ? m + 1 : m - 1]!;
  at[PMIN_] = x.xpos[dir === 1 ? m - 1 : m + 1]!;
  at[FM_] = x.prefix[m]!;
  at[SM_] = x.suffix[m]!;
  at[DIR_] = dir;
  at[DD_] = dd;
  return mixTemplates(PAIR_TEMPLATES, at, out, k, true, mask);
}

/**
 * Hash states of the head–sibling–modifier templates before the sibling is mixed in (they depend on
 * h and m only, so a scorer can compute them once per (h, m) and reuse them for every inner sibling s).
 * Templates, each with direction: the XPOS and UPOS tag trigrams; trigrams with the head's or the
 * modifier's word; the XPOS trigram with the binned h–m distance; the head and modifier XPOS with the
 * sibling's word; the XPOS trigram with the tag next to the head toward m; the sibling's word with the
 * modifier's word and head XPOS or the head's word and modifier XPOS. (Three mixed UPOS/XPOS trigrams
 * and the trigram with the s–m distance were dropped: each costs a random table read per sibling part,
 * the parser's hottest loop. Retrained without them, unpruned second order scored 89.41 UAS-P on en_ewt
 * dev against 89.44 and parsed 1.13× faster in an interleaved run.)
 * Writes `SIBLING_TRIPLE_FEATURES` states into `base`.
 */
export function siblingTripleBase(x: FeatureSentence, h: number, m: number, base: Int32Array): void {
  const dir = h < m ? 1 : 2;
  const at = tripleAtoms;
  at[T_PH] = x.xpos[h]!;
  at[T_PM] = x.xpos[m]!;
  at[T_CH] = x.upos[h]!;
  at[T_CM] = x.upos[m]!;
  at[T_WH] = x.word[h]!;
  at[T_WM] = x.word[m]!;
  at[T_DIR] = dir;
  at[T_DIST] = distBin(m > h ? m - h : h - m);
  at[T_PNEXT] = x.xpos[dir === 1 ? h + 1 : h - 1]!;
  mixTemplates(TRIPLE_BASE, at, base, 0, false, 0);
}

// Atom slots of the triple templates' head–modifier part (see `siblingTripleBase`).
const T_PH = 0;
const T_PM = 1;
const T_CH = 2;
const T_CM = 3;
const T_WH = 4;
const T_WM = 5;
const T_DIR = 6;
const T_DIST = 7;
const T_PNEXT = 8;
const tripleAtoms = new Int32Array(9);
const TRIPLE_BASE = templateTable([
  [111, T_PH, T_PM, T_DIR],
  [112, T_CH, T_CM, T_DIR],
  [113, T_WH, T_PM, T_DIR],
  [114, T_PH, T_WM, T_DIR],
  [115, T_PH, T_PM, T_DIR, T_DIST],
  [116, T_PH, T_PM, T_DIR],
  [133, T_PH, T_PM, T_DIR, T_PNEXT],
  [134, T_PH, T_WM, T_DIR],
  [135, T_WH, T_PM, T_DIR],
]);

/**
 * Finishes the triple templates from their `siblingTripleBase` states with the sibling's atoms (word,
 * XPOS, UPOS); writes `SIBLING_TRIPLE_FEATURES` indices at out[k…].
 */
export function siblingTripleFinish(
  base: Int32Array,
  ws: number,
  ps: number,
  cs: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const atoms = siblingAtoms;
  atoms[PS] = ps;
  atoms[CS] = cs;
  atoms[WS] = ws;
  const region = mask & TRIPLE_REGION;
  // One small loop (mix and finish inlined) rather than one call site per template.
  for (let j = 0; j < SIBLING_TRIPLE_FEATURES; j++)
    out[k + j] = finishBits(mix(base[j]!, atoms[TRIPLE_ATOM[j]!]!)) & region;
  return k + SIBLING_TRIPLE_FEATURES;
}

/**
 * Triple features hash into the first 2^SIBLING_TRIPLE_BITS weights of the table only (shared with
 * whatever other features land there). They are read once per sibling part, O(n³) times a sentence,
 * so keeping them in 2 MB (16-bit weights) that stay in cache matters more than their extra
 * collisions: unpruned second order on a 2^23 table retrained this way scored 89.46 UAS-P on en_ewt
 * dev (89.41 with triples over the whole table) and parsed 1.18× faster in an interleaved run.
 */
export const SIBLING_TRIPLE_BITS = 20;
const TRIPLE_REGION = (1 << SIBLING_TRIPLE_BITS) - 1;

// The sibling atom each triple template mixes in.
const PS = 0;
const CS = 1;
const WS = 2;
const TRIPLE_ATOM = Int32Array.from([PS, CS, PS, PS, PS, WS, PS, WS, WS]);
const siblingAtoms = new Int32Array(3);

const tripleBase = new Int32Array(SIBLING_TRIPLE_FEATURES);

/**
 * Features of the pair (s, m) of adjacent siblings, s ≠ h (they do not depend on the head: the
 * direction is fixed by the order of s and m). Writes `SIBLING_PAIR_FEATURES` indices at out[k…].
 */
export function siblingPairFeatures(
  x: FeatureSentence,
  s: number,
  m: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const dir = s < m ? 1 : 2;
  const dd = (dir << 4) | distBin(s < m ? m - s : s - m);
  const pin = x.xpos[dir === 1 ? s + 1 : s - 1]!;
  const psOut = x.xpos[dir === 1 ? s - 1 : s + 1]!;
  return pairCore(
    x.word[s]!,
    x.prefix[s]!,
    x.xpos[s]!,
    x.upos[s]!,
    x.suffix[s]!,
    pin,
    psOut,
    x,
    m,
    dir,
    dd,
    out,
    k,
    mask,
  );
}

/** Features of (h, s, m) that involve the head, s ≠ h. Writes `SIBLING_TRIPLE_FEATURES` indices at out[k…]. */
export function siblingTripleFeatures(
  x: FeatureSentence,
  h: number,
  s: number,
  m: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  siblingTripleBase(x, h, m, tripleBase);
  return siblingTripleFinish(tripleBase, x.word[s]!, x.xpos[s]!, x.upos[s]!, out, k, mask);
}

/**
 * Every feature of the "no inner sibling" part (h, h, m): the pair and triple templates with the
 * sibling replaced by `NO_SIBLING` and the h–m distance. Writes `SIBLING_FEATURES` indices at out[k…].
 */
export function noSiblingFeatures(
  x: FeatureSentence,
  h: number,
  m: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const dir = h < m ? 1 : 2;
  const dd = (dir << 4) | 8 | distBin(h < m ? m - h : h - m);
  const pin = x.xpos[dir === 1 ? h + 1 : h - 1]!;
  k = pairCore(
    NO_SIBLING,
    NO_SIBLING,
    NO_SIBLING,
    NO_SIBLING,
    NO_SIBLING,
    pin,
    NO_SIBLING,
    x,
    m,
    dir,
    dd,
    out,
    k,
    mask,
  );
  siblingTripleBase(x, h, m, tripleBase);
  return siblingTripleFinish(tripleBase, NO_SIBLING, NO_SIBLING, NO_SIBLING, out, k, mask);
}

/**
 * Every feature index of sibling part (h, s, m) (s = h: no inner sibling), reduced by `mask`
 * (table size − 1). Writes `SIBLING_FEATURES` indices into `out` and returns that count.
 */
export function siblingFeatures(
  x: FeatureSentence,
  h: number,
  s: number,
  m: number,
  out: Int32Array,
  mask: number,
): number {
  if (s === h) return noSiblingFeatures(x, h, m, out, 0, mask);
  const k = siblingPairFeatures(x, s, m, out, 0, mask);
  return siblingTripleFeatures(x, h, s, m, out, k, mask);
}
