import type { FeatureSentence } from "../features/feature-sentence.js";
import { type TemplateTable, templateTable } from "../features/templates.js";
import { finishBits, hashString, mix } from "../util/hash.js";
import type { State } from "./system.js";

/**
 * Feature templates of the transition parser, after Zhang & Nivre (2011, Table 1) adapted to
 * arc-standard, where the arc candidates are s0 and s1 (their s0 and n0): words and UPOS tags of
 * s0–s2 and q0–q2; the leftmost/rightmost and second leftmost/rightmost dependents of s0 and s1
 * (word, tag, label); the distance s0–s1; the left and right valencies of s0 and s1; tag triples.
 * Each template hashes its atoms (the sentence's word/tag atoms of `FeatureSentence`, label and
 * count atoms) into one row of the weight table, which holds a weight per transition class.
 */

/** Version of the templates below; a model trained with others is refused. */
export const TRANSITION_FEATURE_VERSION = 1;

// Atom slots, filled per configuration by `stateAtoms`.
const S0W = 0,
  S0P = 1,
  S1W = 2,
  S1P = 3,
  S2P = 4,
  Q0W = 5,
  Q0P = 6,
  Q1W = 7,
  Q1P = 8,
  Q2W = 9,
  Q2P = 10,
  S0L1W = 11,
  S0L1P = 12,
  S0L1L = 13,
  S0R1W = 14,
  S0R1P = 15,
  S0R1L = 16,
  S1L1W = 17,
  S1L1P = 18,
  S1L1L = 19,
  S1R1W = 20,
  S1R1P = 21,
  S1R1L = 22,
  S0L2P = 23,
  S0L2L = 24,
  S0R2P = 25,
  S0R2L = 26,
  S1L2P = 27,
  S1L2L = 28,
  S1R2P = 29,
  S1R2L = 30,
  DIST = 31,
  S0VL = 32,
  S0VR = 33,
  S1VL = 34,
  S1VR = 35,
  BIAS = 36;
/** Number of atom slots. */
export const ATOM_SLOTS = 37;

const NONE_W = hashString("<tr-none-word>");
const NONE_P = hashString("<tr-none-tag>");
const NONE_L = hashString("<tr-none-label>");

const T: number[][] = [
  // single words
  [S0W, S0P],
  [S0W],
  [S0P],
  [S1W, S1P],
  [S1W],
  [S1P],
  [Q0W, Q0P],
  [Q0W],
  [Q0P],
  [Q1W, Q1P],
  [Q1W],
  [Q1P],
  [Q2W, Q2P],
  [Q2P],
  // word pairs
  [S0W, S0P, S1W, S1P],
  [S0W, S0P, S1W],
  [S0W, S1W, S1P],
  [S0W, S0P, S1P],
  [S0P, S1W, S1P],
  [S0W, S1W],
  [S0P, S1P],
  [S0P, Q0P],
  [S0W, Q0W],
  [S0W, S0P, Q0P],
  [S0P, Q0W, Q0P],
  // three words
  [S0P, S1P, Q0P],
  [S0P, Q0P, Q1P],
  [S2P, S1P, S0P],
  [S1P, S0P, S0L1P],
  [S1P, S0P, S0R1P],
  [S1P, S0P, S1L1P],
  [S1P, S0P, S1R1P],
  [Q0P, Q1P, Q2P],
  // distance
  [S0W, DIST],
  [S0P, DIST],
  [S1W, DIST],
  [S1P, DIST],
  [S0W, S1W, DIST],
  [S0P, S1P, DIST],
  // valency
  [S0W, S0VL],
  [S0P, S0VL],
  [S0W, S0VR],
  [S0P, S0VR],
  [S1W, S1VL],
  [S1P, S1VL],
  [S1W, S1VR],
  [S1P, S1VR],
  // dependents (unigrams)
  [S0L1W],
  [S0L1P],
  [S0L1L],
  [S0R1W],
  [S0R1P],
  [S0R1L],
  [S1L1W],
  [S1L1P],
  [S1L1L],
  [S1R1W],
  [S1R1P],
  [S1R1L],
  // second dependents (third order)
  [S0L2P],
  [S0L2L],
  [S0R2P],
  [S0R2L],
  [S1L2P],
  [S1L2L],
  [S1R2P],
  [S1R2L],
  [S0P, S0L1P, S0L2P],
  [S0P, S0R1P, S0R2P],
  [S1P, S1L1P, S1L2P],
  [S1P, S1R1P, S1R2P],
  // label context
  [S0P, S0L1L, S0R1L],
  [S1P, S1L1L, S1R1L],
  [S0W, S0L1L],
  [S1W, S1R1L],
  [BIAS],
];

/** The template table (one seed per template, then its atom slots). */
export const TRANSITION_TEMPLATES: TemplateTable = templateTable(
  T.map((slots, t) => [hashString(`tr${t}:${slots.join(",")}`), ...slots]),
);

/** Number of templates: feature rows looked up per decision. */
export const TRANSITION_FEATURES = TRANSITION_TEMPLATES.count;

const LABEL_SALT = 0x5bd1e995;

/** Fills `atoms` (length ≥ ATOM_SLOTS) with the atoms of configuration `st` of sentence `x`. */
export function stateAtoms(x: FeatureSentence, st: State, atoms: Int32Array): void {
  const { word, upos } = x;
  const n = st.n;
  const sp = st.sp;
  const stack = st.stack;
  const s0 = stack[sp - 1]!;
  const s1 = sp >= 2 ? stack[sp - 2]! : -1;
  const s2 = sp >= 3 ? stack[sp - 3]! : -1;
  const b = st.b;
  const q0 = b <= n ? b : n + 1;
  const q1 = b + 1 <= n ? b + 1 : n + 1;
  const q2 = b + 2 <= n ? b + 2 : n + 1;
  atoms[S0W] = word[s0]!;
  atoms[S0P] = upos[s0]!;
  atoms[S1W] = s1 >= 0 ? word[s1]! : NONE_W;
  atoms[S1P] = s1 >= 0 ? upos[s1]! : NONE_P;
  atoms[S2P] = s2 >= 0 ? upos[s2]! : NONE_P;
  atoms[Q0W] = word[q0]!;
  atoms[Q0P] = upos[q0]!;
  atoms[Q1W] = word[q1]!;
  atoms[Q1P] = upos[q1]!;
  atoms[Q2W] = word[q2]!;
  atoms[Q2P] = upos[q2]!;
  const rel = st.rel;
  // Dependents of s0 and s1.
  let d = st.lc1[s0]!;
  atoms[S0L1W] = d >= 0 ? word[d]! : NONE_W;
  atoms[S0L1P] = d >= 0 ? upos[d]! : NONE_P;
  atoms[S0L1L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
  d = st.rc1[s0]!;
  atoms[S0R1W] = d >= 0 ? word[d]! : NONE_W;
  atoms[S0R1P] = d >= 0 ? upos[d]! : NONE_P;
  atoms[S0R1L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
  d = st.lc2[s0]!;
  atoms[S0L2P] = d >= 0 ? upos[d]! : NONE_P;
  atoms[S0L2L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
  d = st.rc2[s0]!;
  atoms[S0R2P] = d >= 0 ? upos[d]! : NONE_P;
  atoms[S0R2L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
  atoms[S0VL] = st.nl[s0]!;
  atoms[S0VR] = st.nr[s0]!;
  if (s1 >= 0) {
    d = st.lc1[s1]!;
    atoms[S1L1W] = d >= 0 ? word[d]! : NONE_W;
    atoms[S1L1P] = d >= 0 ? upos[d]! : NONE_P;
    atoms[S1L1L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
    d = st.rc1[s1]!;
    atoms[S1R1W] = d >= 0 ? word[d]! : NONE_W;
    atoms[S1R1P] = d >= 0 ? upos[d]! : NONE_P;
    atoms[S1R1L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
    d = st.lc2[s1]!;
    atoms[S1L2P] = d >= 0 ? upos[d]! : NONE_P;
    atoms[S1L2L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
    d = st.rc2[s1]!;
    atoms[S1R2P] = d >= 0 ? upos[d]! : NONE_P;
    atoms[S1R2L] = d >= 0 ? rel[d]! + LABEL_SALT : NONE_L;
    atoms[S1VL] = st.nl[s1]!;
    atoms[S1VR] = st.nr[s1]!;
    const dist = s0 - s1;
    atoms[DIST] = dist < 5 ? dist : dist < 10 ? 5 : 6;
  } else {
    atoms[S1L1W] = NONE_W;
    atoms[S1L1P] = NONE_P;
    atoms[S1L1L] = NONE_L;
    atoms[S1R1W] = NONE_W;
    atoms[S1R1P] = NONE_P;
    atoms[S1R1L] = NONE_L;
    atoms[S1L2P] = NONE_P;
    atoms[S1L2L] = NONE_L;
    atoms[S1R2P] = NONE_P;
    atoms[S1R2L] = NONE_L;
    atoms[S1VL] = -1;
    atoms[S1VR] = -1;
    atoms[DIST] = -1;
  }
  atoms[BIAS] = 1;
}

/**
 * Writes the weight-table row of every template for configuration `st` into `rows` (length ≥
 * TRANSITION_FEATURES), each multiplied by `classes` (the offset of its row), for a table of
 * 2^bits rows.
 */
export function stateRows(
  x: FeatureSentence,
  st: State,
  atoms: Int32Array,
  rows: Int32Array,
  bits: number,
  classes: number,
): void {
  stateAtoms(x, st, atoms);
  const { count, seed, start, slots } = TRANSITION_TEMPLATES;
  const mask = (1 << bits) - 1;
  for (let t = 0; t < count; t++) {
    let h = seed[t]!;
    const end = start[t + 1]!;
    for (let j = start[t]!; j < end; j++) h = mix(h, atoms[slots[j]!]!);
    rows[t] = (finishBits(h) & mask) * classes;
  }
}
