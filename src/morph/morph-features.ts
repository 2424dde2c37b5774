import { hashString, mix } from "../util/hash.js";
import type { MorphInput } from "./morph-model.js";
import { rowOf } from "./hashed-perceptron.js";

/** Upper bound on the features of one word (lemma or FEATS). */
export const MAX_MORPH_FEATURES = 48;

// Template seeds: every feature is mix(seed, atom…), so templates never share a hash.
const T_BIAS = 1;
const T_WORD = 2;
const T_FORM = 3;
const T_UPOS = 4;
const T_XPOS = 5;
const T_SHAPE = 6;
const T_UPOS_WORD = 7;
const T_SUFFIX = 8; // + k (1..5)
const T_UPOS_SUFFIX = 16; // + k
const T_PREFIX = 24; // + k (1..4)
const T_UPOS_XPOS = 32;
const T_UPOS_PREV = 33;
const T_UPOS_NEXT = 34;
const T_UPOS_PREV2 = 35;
const T_UPOS_NEXT2 = 36;
const T_XPOS_PREV = 37;
const T_XPOS_NEXT = 38;
const T_UPOS_PAIR_PREV = 39;
const T_UPOS_PAIR_NEXT = 40;
const T_WORD_PREV = 41;
const T_WORD_NEXT = 42;
/** Seeds of the FEATS model's features, kept apart from the lemma model's. */
const FEATS_SEED = 0x5eed;

const BOS = hashString("<s>");
const EOS = hashString("</s>");
const SUFFIXES = 5;
const PREFIXES = 4;

/**
 * Word shape as a hash: letters to X/x, digits to d, anything else to ".", runs collapsed, at most
 * 6 symbols (what a shape string would hold, without building it).
 */
export function shapeHash(w: string): number {
  let h = 0x5a;
  let last = 0;
  let count = 0;
  for (let i = 0; i < w.length && count < 6; i++) {
    const c = w.charCodeAt(i);
    let s: number;
    if (c >= 48 && c <= 57)
      s = 100; // d
    else if (c >= 65 && c <= 90)
      s = 88; // X
    else if (c >= 97 && c <= 122)
      s = 120; // x
    else if (c < 128)
      s = 46; // .
    else {
      const ch = w[i]!;
      const lo = ch.toLowerCase();
      const up = ch.toUpperCase();
      s = lo === up ? 46 : ch === up ? 88 : 120;
    }
    if (s !== last) {
      h = mix(h, s);
      count++;
    }
    last = s;
  }
  return h;
}

/**
 * The atoms of a sentence's words that the morphology features combine, computed once per
 * sentence: hashes of each lowercased word, form, UPOS, XPOS and shape, and of each lowercased
 * word's suffixes (1..5 code units) and prefixes (1..4). Arrays grow to the longest sentence.
 */
export class MorphAtoms {
  n = 0;
  lw = new Int32Array(0);
  form = new Int32Array(0);
  upos = new Int32Array(0);
  xpos = new Int32Array(0);
  shape = new Int32Array(0);
  /** suffix[i * 5 + k - 1]: the last k code units of word i lowercased (0 when shorter). */
  suffix = new Int32Array(0);
  /** prefix[i * 4 + k - 1]: the first k code units. */
  prefix = new Int32Array(0);
  /** Length of each lowercased word. */
  len = new Int32Array(0);

  /** Fills the atoms of `x`'s words. */
  prepare(x: MorphInput): void {
    const n = x.words.length;
    this.n = n;
    if (this.lw.length < n) {
      const cap = Math.max(n, 2 * this.lw.length, 64);
      this.lw = new Int32Array(cap);
      this.form = new Int32Array(cap);
      this.upos = new Int32Array(cap);
      this.xpos = new Int32Array(cap);
      this.shape = new Int32Array(cap);
      this.suffix = new Int32Array(cap * SUFFIXES);
      this.prefix = new Int32Array(cap * PREFIXES);
      this.len = new Int32Array(cap);
    }
    for (let i = 0; i < n; i++) {
      const w = x.words[i]!;
      const lw = w.toLowerCase();
      this.lw[i] = hashString(lw);
      this.form[i] = hashString(w);
      this.upos[i] = hashString(x.upos[i]!);
      this.xpos[i] = hashString(x.xpos[i]!);
      this.shape[i] = shapeHash(w);
      const L = lw.length;
      this.len[i] = L;
      let h = 0x53;
      for (let k = 1; k <= SUFFIXES; k++) {
        if (k <= L) h = mix(h, lw.charCodeAt(L - k));
        this.suffix[i * SUFFIXES + k - 1] = k <= L ? h : 0;
      }
      h = 0x50;
      for (let k = 1; k <= PREFIXES; k++) {
        if (k <= L) h = mix(h, lw.charCodeAt(k - 1));
        this.prefix[i * PREFIXES + k - 1] = k <= L ? h : 0;
      }
    }
  }

  /** Rows of the lemma classifier's features of word i (in a table of mask + 1); returns how many. */
  lemmaRows(i: number, mask: number, out: Int32Array): number {
    const u = this.upos[i]!;
    const lw = this.lw[i]!;
    const L = this.len[i]!;
    let n = 0;
    out[n++] = rowOf(T_BIAS, mask);
    out[n++] = rowOf(mix(T_WORD, lw), mask);
    out[n++] = rowOf(mix(T_FORM, this.form[i]!), mask);
    out[n++] = rowOf(mix(T_UPOS, u), mask);
    out[n++] = rowOf(mix(T_XPOS, this.xpos[i]!), mask);
    out[n++] = rowOf(mix(T_SHAPE, this.shape[i]!), mask);
    out[n++] = rowOf(mix(mix(T_UPOS_WORD, u), lw), mask);
    for (let k = 1; k <= SUFFIXES && k <= L; k++) {
      const s = this.suffix[i * SUFFIXES + k - 1]!;
      out[n++] = rowOf(mix(T_SUFFIX + k, s), mask);
      if (k <= 3) out[n++] = rowOf(mix(mix(T_UPOS_SUFFIX + k, u), s), mask);
    }
    for (let k = 1; k <= PREFIXES && k <= L; k++)
      out[n++] = rowOf(mix(T_PREFIX + k, this.prefix[i * PREFIXES + k - 1]!), mask);
    return n;
  }

  /**
   * Rows of the FEATS classifier's features of word i: the word, its shape, tags, affixes, and the
   * tags and words around it. The classes are the bundles' ids; a word's candidates are the bundles
   * seen with its UPOS.
   */
  featsRows(i: number, mask: number, out: Int32Array): number {
    const n = this.n;
    const U = this.upos;
    const u = U[i]!;
    const x = this.xpos[i]!;
    const lw = this.lw[i]!;
    const L = this.len[i]!;
    const up1 = i > 0 ? U[i - 1]! : BOS;
    const un1 = i + 1 < n ? U[i + 1]! : EOS;
    const up2 = i > 1 ? U[i - 2]! : BOS;
    const un2 = i + 2 < n ? U[i + 2]! : EOS;
    const S = this.suffix;
    const P = this.prefix;
    const F = FEATS_SEED;
    let k = 0;
    out[k++] = rowOf(mix(F, T_BIAS), mask);
    out[k++] = rowOf(mix(F, mix(T_WORD, lw)), mask);
    out[k++] = rowOf(mix(F, mix(T_SHAPE, this.shape[i]!)), mask);
    out[k++] = rowOf(mix(F, mix(T_UPOS, u)), mask);
    out[k++] = rowOf(mix(F, mix(T_XPOS, x)), mask);
    out[k++] = rowOf(mix(F, mix(mix(T_UPOS_XPOS, u), x)), mask);
    out[k++] = rowOf(mix(F, mix(T_UPOS_PREV, up1)), mask);
    out[k++] = rowOf(mix(F, mix(T_UPOS_NEXT, un1)), mask);
    out[k++] = rowOf(mix(F, mix(T_UPOS_PREV2, up2)), mask);
    out[k++] = rowOf(mix(F, mix(T_UPOS_NEXT2, un2)), mask);
    out[k++] = rowOf(mix(F, mix(T_XPOS_PREV, i > 0 ? this.xpos[i - 1]! : BOS)), mask);
    out[k++] = rowOf(mix(F, mix(T_XPOS_NEXT, i + 1 < n ? this.xpos[i + 1]! : EOS)), mask);
    out[k++] = rowOf(mix(F, mix(mix(T_UPOS_PAIR_PREV, up1), u)), mask);
    out[k++] = rowOf(mix(F, mix(mix(T_UPOS_PAIR_NEXT, u), un1)), mask);
    out[k++] = rowOf(mix(F, mix(T_WORD_PREV, i > 0 ? this.lw[i - 1]! : BOS)), mask);
    out[k++] = rowOf(mix(F, mix(T_WORD_NEXT, i + 1 < n ? this.lw[i + 1]! : EOS)), mask);
    for (let j = 1; j <= 4 && j <= L; j++) {
      const suf = S[i * SUFFIXES + j - 1]!;
      out[k++] = rowOf(mix(F, mix(T_SUFFIX + j, suf)), mask);
      if (j >= 2) out[k++] = rowOf(mix(F, mix(mix(T_UPOS_SUFFIX + j, u), suf)), mask);
    }
    for (let j = 1; j <= 3 && j <= L; j++)
      out[k++] = rowOf(mix(F, mix(T_PREFIX + j, P[i * PREFIXES + j - 1]!)), mask);
    return k;
  }
}
