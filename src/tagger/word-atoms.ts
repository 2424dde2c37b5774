import { hashString } from "../util/hash.js";
import type { Lexicon } from "./lexicon.js";
import type { WordGuesser } from "./word-guesser.js";

/** Padding on each side of a sentence so that window features never bounds-check. */
export const PAD = 2;
/** Longest prefix/suffix length used as a feature. */
export const MAX_AFFIX = 6;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const START_HASH = hashString("<s>");
const END_HASH = hashString("</s>");
const UNKNOWN_HASH = hashString("<unk>");
/** `top` atom of a word missing from the lexicon, and of the padding before / after the sentence. */
export const TOP_UNKNOWN = -2;
const TOP_START = -3;
const TOP_END = -4;

/** Shape class of a UTF-16 code unit given whether it was changed by lower-casing. */
function shapeClass(c: number, upper: boolean): number {
  if (upper) return 88; // X
  if (c >= 48 && c <= 57) return 100; // d
  if (c >= 97 && c <= 122) return 120; // x
  if (c < 128) return c; // punctuation and symbols stand for themselves
  if (c >= 0x2e80 && c <= 0x9fff) return 67; // C: CJK
  if (c >= 0xac00 && c <= 0xd7af) return 67; // Hangul syllables
  return 120; // other letters
}

/**
 * Per-token integer atoms of one sentence, computed once and reused by every feature template:
 * hashes of the word, its lower-case form, its prefixes and suffixes (lower-cased, lengths 1–6), its
 * collapsed shape ("Xx", "d.d", "x-x") and its lexicon entry (ambiguity class, most frequent tag).
 * Arrays are padded by `PAD` start/end atoms on both sides
 * and reused between sentences, so tagging allocates nothing per token beyond `toLowerCase`.
 */
export class WordAtoms {
  /** Number of tokens of the current sentence. */
  n = 0;
  /** Token i (0-based) is at position i + PAD in every array. */
  word = new Int32Array(64);
  lower = new Int32Array(64);
  shape = new Int32Array(64);
  /** prefix[(i + PAD) * MAX_AFFIX + k - 1] = hash of the lower-cased prefix of length k. */
  prefix = new Int32Array(64 * MAX_AFFIX);
  /** suffix[(i + PAD) * MAX_AFFIX + k - 1] = hash of the lower-cased suffix of length k. */
  suffix = new Int32Array(64 * MAX_AFFIX);
  /** 1 if the token contains a digit, 2 if a hyphen, 4 if an upper-case letter (bit set). */
  flags = new Uint8Array(64);
  /** Lexicon ambiguity class of the word (a fixed atom if unknown). */
  amb = new Int32Array(64);
  /** Lexicon most frequent tag of the word (`TOP_UNKNOWN` if unknown). */
  top = new Int32Array(64);
  /** Atom of the tag the word guesser guesses for the word (see `WordGuesser`). */
  guessTop = new Int32Array(64);
  /** Atom of the guessed ambiguity set. */
  guessSet = new Int32Array(64);
  /** Whether the guess atoms were filled from a guesser (else the guess features are off). */
  hasGuesses = false;

  /**
   * Fills the atoms for a sentence of word strings, with lexicon atoms from `lex` and guess atoms
   * from `guesser` if given.
   */
  set(words: readonly string[], lex?: Lexicon, guesser?: WordGuesser | null): void {
    const n = words.length;
    this.n = n;
    const size = n + 2 * PAD;
    if (size > this.word.length) this.resize(size * 2);
    for (let p = 0; p < PAD; p++) this.fillPad(p, START_HASH, TOP_START);
    for (let p = n + PAD; p < size; p++) this.fillPad(p, END_HASH, TOP_END);
    this.hasGuesses = guesser != null;
    for (let i = 0; i < n; i++) {
      const w = words[i]!;
      const lw = this.fillWord(i + PAD, w);
      if (guesser != null) {
        const g = guesser.get(lw);
        this.guessTop[i + PAD] = guesser.topAtom(g);
        this.guessSet[i + PAD] = guesser.setAtom(g);
      }

      const e = lex === undefined ? -1 : lex.get(w);
      this.amb[i + PAD] = e < 0 ? UNKNOWN_HASH : lex!.amb[e]!;
      this.top[i + PAD] = e < 0 ? TOP_UNKNOWN : lex!.top[e]!;
    }
  }

  /** Makes token i (0-based) look like a word never seen in training: its identity and lexicon atoms become the unknown atom. */
  forget(i: number): void {
    const p = i + PAD;
    this.word[p] = UNKNOWN_HASH;
    this.lower[p] = UNKNOWN_HASH;
    this.amb[p] = UNKNOWN_HASH;
    this.top[p] = TOP_UNKNOWN;
  }

  private fillPad(p: number, h: number, top: number): void {
    this.guessTop[p] = h;
    this.guessSet[p] = h;
    this.word[p] = h;
    this.amb[p] = h;
    this.top[p] = top;
    this.lower[p] = h;
    this.shape[p] = h;
    this.flags[p] = 0;
    for (let k = 0; k < MAX_AFFIX; k++) {
      this.prefix[p * MAX_AFFIX + k] = h;
      this.suffix[p * MAX_AFFIX + k] = h;
    }
  }

  /** Fills the word atoms of position p and returns the lower-cased word. */
  private fillWord(p: number, w: string): string {
    const lw = w.toLowerCase();
    const sameLen = lw.length === w.length;
    let hw = FNV_OFFSET;
    let hl = FNV_OFFSET;
    let hs = FNV_OFFSET;
    let lastClass = -1;
    let flags = 0;
    const len = w.length;
    for (let j = 0; j < len; j++) {
      const c = w.charCodeAt(j);
      hw = Math.imul(hw ^ c, FNV_PRIME);
      const upper = sameLen ? lw.charCodeAt(j) !== c : c >= 65 && c <= 90;
      const cls = shapeClass(c, upper);
      if (cls !== lastClass) {
        hs = Math.imul(hs ^ cls, FNV_PRIME);
        lastClass = cls;
      }

      if (cls === 100) flags |= 1;
      else if (c === 45) flags |= 2;
      else if (cls === 88) flags |= 4;
    }
    const llen = lw.length;
    const base = p * MAX_AFFIX;
    for (let j = 0; j < llen; j++) {
      hl = Math.imul(hl ^ lw.charCodeAt(j), FNV_PRIME);
      if (j < MAX_AFFIX) this.prefix[base + j] = hl;
    }
    for (let k = llen; k < MAX_AFFIX; k++) this.prefix[base + k] = hl;
    let hx = FNV_OFFSET ^ 0x5bd1e995;
    for (let k = 0; k < MAX_AFFIX; k++) {
      if (k < llen) hx = Math.imul(hx ^ lw.charCodeAt(llen - 1 - k), FNV_PRIME);
      this.suffix[base + k] = hx;
    }
    this.word[p] = hw;
    this.lower[p] = hl;
    this.shape[p] = hs;
    this.flags[p] = flags;
    return lw;
  }

  private resize(size: number): void {
    this.word = new Int32Array(size);
    this.lower = new Int32Array(size);
    this.shape = new Int32Array(size);
    this.prefix = new Int32Array(size * MAX_AFFIX);
    this.suffix = new Int32Array(size * MAX_AFFIX);
    this.flags = new Uint8Array(size);
    this.amb = new Int32Array(size);
    this.top = new Int32Array(size);
    this.guessTop = new Int32Array(size);
    this.guessSet = new Int32Array(size);
  }
}
