import { finishBits, mix } from "../util/hash.js";
import { MAX_AFFIX, PAD, type WordAtoms } from "./word-atoms.js";

/** Upper bound on the number of features one token produces (size of the caller's buffer). */
export const MAX_FEATURES = 64;
/** Tag id used for the history before the first token. */
export const START_TAG = -1;

/** Prefix lengths used as features (1..NPRE); suffix lengths are 1..MAX_AFFIX. */
const NPRE = 5;

/** Hashes a template id and one atom into a non-zero feature key. */
function f1(t: number, a: number): number {
  const h = finishBits(mix(mix(0x3c6ef372, t), a)) | 0;
  return h === 0 ? 1 : h;
}

/** Hashes a template id and two atoms into a non-zero feature key. */
function f2(t: number, a: number, b: number): number {
  const h = finishBits(mix(mix(mix(0x3c6ef372, t), a), b)) | 0;
  return h === 0 ? 1 : h;
}

/**
 * Writes the features of token `i` (0-based) that do not depend on predicted tags into `out`
 * starting at `k`; returns the index after the last one written. Templates: bias; word; lower-case
 * word; prefixes 1–5 and suffixes 1–6; shape; shape × sentence-initial; digit/hyphen/upper flags;
 * words at ±1, ±2; suffix and shape of the neighbours; word bigrams with the left and right
 * neighbour; lexicon ambiguity classes at −2..+2, the lexicon's most frequent tag at +1, +2 and
 * their pairs; with a word guesser, the guessed tag and ambiguity set of the word and at ±1, the
 * guessed tag at ±2, and the guessed tag × 3-letter suffix.
 */
export function staticFeatures(a: WordAtoms, i: number, out: Int32Array, k: number): number {
  const p = i + PAD;
  const lower = a.lower;
  const pb = p * MAX_AFFIX;
  out[k++] = f1(0, 0);
  out[k++] = f1(1, a.word[p]!);
  out[k++] = f1(2, lower[p]!);
  for (let j = 0; j < NPRE; j++) out[k++] = f1(100 + j, a.prefix[pb + j]!);
  for (let j = 0; j < MAX_AFFIX; j++) out[k++] = f1(110 + j, a.suffix[pb + j]!);
  out[k++] = f1(11, a.shape[p]!);
  out[k++] = f2(12, a.shape[p]!, i === 0 ? 1 : 0);
  out[k++] = f1(13, a.flags[p]!);
  out[k++] = f1(14, lower[p - 1]!);
  out[k++] = f1(15, lower[p + 1]!);
  out[k++] = f1(16, lower[p - 2]!);
  out[k++] = f1(17, lower[p + 2]!);
  out[k++] = f1(18, a.suffix[pb - MAX_AFFIX + 2]!);
  out[k++] = f1(19, a.suffix[pb + MAX_AFFIX + 2]!);
  out[k++] = f1(20, a.shape[p - 1]!);
  out[k++] = f1(21, a.shape[p + 1]!);
  out[k++] = f2(22, lower[p - 1]!, lower[p]!);
  out[k++] = f2(23, lower[p]!, lower[p + 1]!);
  // Lexicon atoms of the window: ambiguity classes at -2..+2, most frequent tags to the right.
  out[k++] = f1(41, a.amb[p]!);
  out[k++] = f1(42, a.amb[p - 1]!);
  out[k++] = f1(43, a.amb[p + 1]!);
  out[k++] = f1(44, a.amb[p - 2]!);
  out[k++] = f1(45, a.amb[p + 2]!);
  out[k++] = f1(46, a.top[p + 1]!);
  out[k++] = f1(47, a.top[p + 2]!);
  out[k++] = f2(48, a.amb[p]!, a.amb[p + 1]!);
  out[k++] = f2(49, a.top[p + 1]!, a.top[p + 2]!);
  if (a.hasGuesses) {
    const gt = a.guessTop;
    const gs = a.guessSet;
    out[k++] = f1(60, gt[p]!);
    out[k++] = f1(61, gs[p]!);
    out[k++] = f1(62, gt[p - 1]!);
    out[k++] = f1(63, gs[p - 1]!);
    out[k++] = f1(64, gt[p + 1]!);
    out[k++] = f1(65, gs[p + 1]!);
    out[k++] = f1(66, gt[p - 2]!);
    out[k++] = f1(67, gt[p + 2]!);
    out[k++] = f2(68, gt[p]!, a.suffix[pb + 2]!);
  }
  return k;
}

/**
 * Appends the history features of token `i` given the two previous predicted tags (`START_TAG`
 * before the sentence): previous tag, tag before that, both, and previous tag × word / × next word /
 * × suffix. Returns the new feature count.
 */
export function historyFeatures(
  a: WordAtoms,
  i: number,
  t1: number,
  t2: number,
  out: Int32Array,
  k: number,
): number {
  const p = i + PAD;
  out[k++] = f1(30, t1);
  out[k++] = f1(31, t2);
  out[k++] = f2(32, t1, t2);
  out[k++] = f2(33, t1, a.lower[p]!);
  out[k++] = f2(34, t1, a.lower[p + 1]!);
  out[k++] = f2(35, t1, a.suffix[p * MAX_AFFIX + 2]!);
  if (a.hasGuesses) out[k++] = f2(36, t1, a.guessSet[p]!);
  return k;
}
