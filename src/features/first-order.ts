import { finishBits, mix } from "../util/hash.js";
import type { FeatureSentence } from "./feature-sentence.js";
import { BOS } from "./atoms.js";
import { mixTemplates, templateTable } from "./templates.js";

/** Upper bound on the number of feature indices `arcFeatures` writes for one arc. */
export const MAX_ARC_FEATURES = 512;
/** At most this many distinct in-between UPOS, and as many XPOS, features per arc (nearest the head first). */
export const MAX_BETWEEN_TAGS = 64;
/** Number of indices `unigramFeatures` writes. */
export const UNIGRAM_FEATURES = 16;

/** Binned, directed distance code for arc h→m (McDonald et al. 2005 style bins: 1..5, 6–10, 11–20, >20). */
export function dirDist(h: number, m: number): number {
  const d = h < m ? m - h : h - m;
  const bin = d <= 5 ? d : d <= 10 ? 6 : d <= 20 ? 7 : 8;
  return (h < m ? 0x100 : 0x200) | bin;
}

/** Dense index 0..31 of a `dirDist` code (for per-token caches). */
export function dirDistIndex(dd: number): number {
  return ((dd >> 9) << 4) | (dd & 15);
}

/**
 * The key that conjoins a feature with direction/distance code dd: a small non-zero number (< 32),
 * distinct per code, so the conjoined weight lies in the same 128-byte block as the base weight and
 * both usually cost one cache miss.
 */
export function dirDistKey(dd: number): number {
  return dirDistIndex(dd);
}

/**
 * Writes feature v at out[k], and v conjoined with direction/distance at out[k + 1]: the conjoined
 * index is the base index XOR a small per-bin key, which costs one hash instead of two and stays in
 * the base weight's cache-line pair.
 */
function put(out: Int32Array, k: number, v: number, key: number, mask: number): void {
  const f = finishBits(v);
  out[k] = f & mask;
  out[k + 1] = (f ^ key) & mask;
}

/** Template-id offset of the head side's unigram features (`unigramFeatures`). */
export const HEAD_SIDE = 0;
/** Template-id offset of the modifier side's unigram features. */
export const MODIFIER_SIDE = 10;

/**
 * Unigram features of one end of an arc (word, prefix, suffix, XPOS, UPOS) at position i: the head
 * (side = HEAD_SIDE) or the modifier (MODIFIER_SIDE), whose templates differ only by their ids.
 * Writes UNIGRAM_FEATURES indices at k.
 */
export function unigramFeatures(
  x: FeatureSentence,
  i: number,
  side: number,
  dd: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  const key = dirDistKey(dd);
  const w = x.word[i]!;
  const f = x.prefix[i]!;
  const p = x.xpos[i]!;
  const c = x.upos[i]!;
  const s = x.suffix[i]!;
  put(out, k, mix(mix(side + 1, w), p), key, mask);
  put(out, k + 2, mix(side + 2, w), key, mask);
  put(out, k + 4, mix(side + 3, p), key, mask);
  put(out, k + 6, mix(mix(side + 4, f), p), key, mask);
  put(out, k + 8, mix(side + 5, f), key, mask);
  put(out, k + 10, mix(side + 6, c), key, mask);
  put(out, k + 12, mix(side + 7, s), key, mask);
  put(out, k + 14, mix(mix(side + 8, s), c), key, mask);
  return k + UNIGRAM_FEATURES;
}

// Head-side atoms of a token, as indices into the per-token atom vector `fillHeadPrefixes` fills.
const HW = 0; // word
const HF = 1; // 5-character prefix
const HP = 2; // XPOS
const HC = 3; // UPOS
const HPL = 4; // XPOS left of the head (BOS at the root)
const HPR = 5; // XPOS right of the head
const HCL = 6; // UPOS left of the head
const HCR = 7; // UPOS right of the head
const HS = 8; // 3-character suffix
const HZERO = 9; // the constant 0

/**
 * The head-side states of the pair templates, slot by slot (seed, head atoms): slot k's state is
 * mix(…mix(seed, atom1)…), the head part of the pair templates below.
 */
const HEAD_TEMPLATES = templateTable([
  [21, HW, HP],
  [22, HP],
  [23, HW],
  [24, HW, HP, HZERO],
  [25, HW, HP],
  [26, HW],
  [27, HP],
  [28, HC],
  [29, HF, HP],
  [30, HC],
  [31, HW, HC],
  [32, HP],
  [33, HF],
  [34, HF, HP],
  [35, HF, HP],
  [36, HF],
  [41, HP, HPR],
  [42, HPL, HP],
  [43, HP, HPR],
  [44, HPL, HP],
  [45, HP],
  [46, HP, HPR],
  [47, HPL, HP],
  [48, HP],
  [51, HC, HCR],
  [52, HCL, HC],
  [53, HC, HCR],
  [54, HCL, HC],
  [61, HC],
  [63, HP],
  [62, HC],
  [37, HS],
  [38, HS],
  [39, HC],
]);

/** Number of head-side template states per token in `FeatureSentence.headPre`. */
export const HEAD_SLOTS = HEAD_TEMPLATES.count;

/** The head atoms of one token (`HZERO` stays 0). */
const headAtoms = new Int32Array(10);

/**
 * Mixes, once per token, the head-side part of every pair template (every template mixes its head
 * atoms first), so that an arc only mixes in its modifier atoms. Called by `AtomCache.prepare`.
 */
export function fillHeadPrefixes(x: FeatureSentence): void {
  const n = x.n;
  if (x.headPre.length < (n + 1) * HEAD_SLOTS) x.headPre = new Int32Array((n + 1) * HEAD_SLOTS * 2);
  const H = x.headPre;
  const P = x.xpos;
  const C = x.upos;
  const a = headAtoms;
  for (let h = 0; h <= n; h++) {
    a[HW] = x.word[h]!;
    a[HF] = x.prefix[h]!;
    a[HP] = P[h]!;
    a[HC] = C[h]!;
    a[HPL] = h > 0 ? P[h - 1]! : BOS;
    a[HPR] = P[h + 1]!;
    a[HCL] = h > 0 ? C[h - 1]! : BOS;
    a[HCR] = C[h + 1]!;
    a[HS] = x.suffix[h]!;
    mixTemplates(HEAD_TEMPLATES, a, H, h * HEAD_SLOTS, false, 0);
  }
}

// Modifier-side atoms of an arc, as indices into the per-arc atom vector `pairFeatures` fills.
const MW = 0; // word
const MP = 1; // XPOS
const MC = 2; // UPOS
const MF = 3; // 5-character prefix
const MS = 4; // 3-character suffix
const MPL = 5; // XPOS left of the modifier
const MPR = 6; // XPOS right of the modifier
const MCL = 7; // UPOS left of the modifier
const MCR = 8; // UPOS right of the modifier
const ZERO = 9; // the constant 0

/**
 * The pair templates, as (head-side slot of `fillHeadPrefixes`, first modifier atom, second modifier
 * atom or -1): feature = finish(mix(mix(headPre[slot], atom1), atom2)). Table-driven so that the hot
 * loop is one small body the JIT inlines `mix` and `finish` into, instead of sixty call sites.
 */
// prettier-ignore
const ALWAYS = Int32Array.from([
  // Word, prefix and tag bigrams.
  0, MW, MP,   1, MW, MP,   2, MW, MP,   3, MP, -1,   4, MW, ZERO,   5, MW, -1,
  6, MP, -1,   7, MC, -1,   8, MF, MP,   9, MW, MC,   10, MC, -1,
  // Suffix pairs: morphology that survives tagging errors.
  31, MS, -1,   32, MC, -1,   33, MS, -1,
  // Surrounding tags (XPOS), with trigram back-offs.
  16, MPL, MP,   17, MPL, MP,   18, MP, MPR,   19, MP, MPR,
  20, MPL, MP,   21, MP, -1,    22, MP, -1,    23, MP, MPR,
  // Surrounding tags (UPOS).
  24, MCL, MC,   25, MCL, MC,   26, MC, MCR,   27, MC, MCR,
]);
/**
 * The coarse pair templates of a pruning pass (`pairFeatures` with `coarse`): ten of ALWAYS (the
 * head tag with the modifier's word and tag, the head word and tag with the modifier's tag, the tag
 * pairs, the surrounding-tag trigram-plus features), no prefix back-offs and only the in-between UPOS
 * tags: about half the look-ups of the full set per arc, for a pass that only has to rank arcs well
 * enough to prune them.
 */
// prettier-ignore
const COARSE = Int32Array.from([
  1, MW, MP,   3, MP, -1,   6, MP, -1,   7, MC, -1,   9, MW, MC,   10, MC, -1,
  16, MPL, MP,   18, MP, MPR,   24, MCL, MC,   26, MC, MCR,
]);
/** 5-character-prefix back-offs of the word bigrams (only when a word is longer than 5 characters). */
// prettier-ignore
const PREFIXED = Int32Array.from([11, MF, MP,   12, MF, MP,   13, MP, -1,   14, MF, -1,   15, MF, -1]);

/**
 * Writes the features of `templates` (see ALWAYS) for head-state offset o and modifier atoms a, each
 * alone and conjoined with the direction/distance key, at out[k…]; returns the new end.
 */
function putTemplates(
  templates: Int32Array,
  H: Int32Array,
  o: number,
  a: Int32Array,
  key: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  for (let t = 0; t < templates.length; t += 3) {
    let v = mix(H[o + templates[t]!]!, a[templates[t + 1]!]!);
    const second = templates[t + 2]!;
    if (second >= 0) v = mix(v, a[second]!);
    const f = finishBits(v);
    out[k] = f & mask;
    out[k + 1] = (f ^ key) & mask;
    k += 2;
  }
  return k;
}

/**
 * The distinct tags strictly between a head and a modifier, collected outward from the head one position
 * at a time, so that a scorer walking each head's row outward adds one position per arc instead of
 * rescanning the span. Lists keep first-occurrence order and stop at MAX_BETWEEN_TAGS entries each.
 */
export class BetweenTags {
  /** Atom (hash) of each distinct UPOS so far, in order of first occurrence. */
  readonly upos = new Int32Array(MAX_BETWEEN_TAGS);
  /** Atom (hash) of each distinct XPOS so far. */
  readonly xpos = new Int32Array(MAX_BETWEEN_TAGS);
  nUpos = 0;
  nXpos = 0;
  private uposSeen = new Int32Array(64);
  private xposSeen = new Int32Array(64);
  private stamp = 0;

  /** Empties the lists (for a new head and direction) of sentence x. */
  reset(x: FeatureSentence): void {
    this.nUpos = 0;
    this.nXpos = 0;
    if (this.uposSeen.length < x.numCats) this.uposSeen = new Int32Array(x.numCats * 2);
    if (this.xposSeen.length < x.numXpos) this.xposSeen = new Int32Array(x.numXpos * 2);
    if (++this.stamp === 0x7fffffff) {
      this.uposSeen.fill(0);
      this.xposSeen.fill(0);
      this.stamp = 1;
    }
  }

  /** Adds the tags of position i. */
  add(x: FeatureSentence, i: number): void {
    const stamp = this.stamp;
    const c = x.cat[i]!;
    if (this.uposSeen[c] !== stamp && this.nUpos < MAX_BETWEEN_TAGS) {
      this.uposSeen[c] = stamp;
      this.upos[this.nUpos++] = x.upos[i]!;
    }
    const t = x.xposId[i]!;
    if (this.xposSeen[t] !== stamp && this.nXpos < MAX_BETWEEN_TAGS) {
      this.xposSeen[t] = stamp;
      this.xpos[this.nXpos++] = x.xpos[i]!;
    }
  }

  /** Fills the lists for arc h→m directly (outward from h, as an incremental walk would). */
  fill(x: FeatureSentence, h: number, m: number): void {
    this.reset(x);
    if (h < m) for (let i = h + 1; i < m; i++) this.add(x, i);
    else for (let i = h - 1; i > m; i--) this.add(x, i);
  }
}

/**
 * Features of arc h→m that depend on both ends (McDonald et al. 2005): bigram features over words,
 * prefixes, XPOS and UPOS; surrounding-tag features with trigram back-offs; in-between UPOS and XPOS
 * features (each distinct tag between h and m once, from `between`, which must hold the tags strictly
 * between h and m); adjacent arcs get one "nothing between" feature instead. Each is emitted alone and
 * conjoined with direction and binned distance. Writes at out[k…] and returns the new end. With
 * `coarse`, the pruning-pass subset (COARSE templates, in-between UPOS only).
 */
export function pairFeatures(
  x: FeatureSentence,
  h: number,
  m: number,
  dd: number,
  between: BetweenTags,
  out: Int32Array,
  k: number,
  mask: number,
  coarse: boolean,
): number {
  const key = dirDistKey(dd);
  const W = x.word;
  const F = x.prefix;
  const P = x.xpos;
  const C = x.upos;
  const a = x.modAtoms;
  const mw = W[m]!;
  const mf = F[m]!;
  const mp = P[m]!;
  const mc = C[m]!;
  a[MW] = mw;
  a[MP] = mp;
  a[MC] = mc;
  a[MF] = mf;
  a[MS] = x.suffix[m]!;
  a[MPL] = P[m - 1]!;
  a[MPR] = P[m + 1]!;
  a[MCL] = C[m - 1]!;
  a[MCR] = C[m + 1]!;
  a[ZERO] = 0;
  // Head-side template states, mixed once per token by `fillHeadPrefixes`.
  const H = x.headPre;
  const o = h * HEAD_SLOTS;
  if (coarse) k = putTemplates(COARSE, H, o, a, key, out, k, mask);
  else {
    k = putTemplates(ALWAYS, H, o, a, key, out, k, mask);
    if (F[h] !== W[h] || mf !== mw) k = putTemplates(PREFIXED, H, o, a, key, out, k, mask);
  }
  if (h - m === 1 || m - h === 1) {
    put(out, k, mix(H[o + 30]!, mc), key, mask);
    return k + 2;
  }
  k = putBetween(mix(H[o + 28]!, mc), between.upos, between.nUpos, key, out, k, mask);
  if (coarse) return k;
  return putBetween(mix(H[o + 29]!, mp), between.xpos, between.nXpos, key, out, k, mask);
}

/** Writes finish(mix(base, tags[i])) for the first `count` tags, alone and conjoined with `key`. */
function putBetween(
  base: number,
  tags: Int32Array,
  count: number,
  key: number,
  out: Int32Array,
  k: number,
  mask: number,
): number {
  for (let i = 0; i < count; i++) {
    const f = finishBits(mix(base, tags[i]!));
    out[k] = f & mask;
    out[k + 1] = (f ^ key) & mask;
    k += 2;
  }
  return k;
}

/**
 * Writes every feature index of arc h→m (reduced by `mask`) into `out` and returns their count; with
 * `coarse`, a pruning pass's coarse pair templates (see COARSE) instead of the full set.
 */
export function arcFeatures(
  x: FeatureSentence,
  h: number,
  m: number,
  out: Int32Array,
  mask: number,
  coarse = false,
): number {
  const dd = dirDist(h, m);
  let k = unigramFeatures(x, h, HEAD_SIDE, dd, out, 0, mask);
  k = unigramFeatures(x, m, MODIFIER_SIDE, dd, out, k, mask);
  const between = x.between;
  between.fill(x, h, m);
  return pairFeatures(x, h, m, dd, between, out, k, mask, coarse);
}
