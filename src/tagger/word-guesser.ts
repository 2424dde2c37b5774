import { VineparseError } from "../errors.js";
import type { ModelArray } from "../model/model-file.js";
import { hashString } from "../util/hash.js";
import { Rng } from "../util/rng.js";
import type { WordVectors } from "../vectors/word-vectors.js";

/** Options of `trainWordGuesser`. */
export interface WordGuesserOptions {
  /** Cross-fitting folds over word types (default 5). */
  folds?: number;
  /** SGD passes over the word types (default 15). */
  epochs?: number;
  /** A tag joins a word's guessed ambiguity set if its probability is at least this (default 0.2). */
  minProb?: number;
  /** Seed of the shuffles (default 1). */
  seed?: number;
}

const UNKNOWN_TOP = hashString("\u0004guess-unknown-top");
const UNKNOWN_SET = hashString("\u0004guess-unknown-set");

function topAtom(t: number): number {
  return hashString(`\u0004guess-top:${t}`);
}

function setAtom(mask: number): number {
  return hashString(`\u0004guess-set:${mask >>> 0}`);
}

/**
 * A guess of the part of speech of every word that has a vector, learned from word vectors (trained
 * on unlabelled text) and the tags of the training words: a softmax regression from a word's vector
 * to the distribution of its tags, trained over word types. Gives the tagger hints for the words its
 * treebank never shows, and for rare ones. The guess of a training word comes from a model that did
 * not see that word (cross-fitting over types), so that the tagger learns how far to trust a guess
 * as it will meet them on new text.
 */
export class WordGuesser {
  /** Most probable tag id of each word. */
  readonly top: Uint8Array;
  /** Bit set of the tags whose probability reaches the threshold. */
  readonly set: Uint32Array;
  /**
   * The words (lower-cased forms) joined by newlines: one string instead of 100,000, looked up
   * through `table` (open addressing on the word's hash, entry + 1 per slot, 0 = empty); a quarter
   * of the memory of an array of strings and a Map.
   */
  private readonly text: string;
  /** Word e is text[begin[e], begin[e + 1] - 1). */
  private readonly begin: Int32Array;
  private readonly table: Int32Array;
  private readonly topAtoms: Int32Array;
  private readonly setAtoms: Int32Array;

  /** `words`: the word forms with a guess, as an array or joined by newlines (as `toStored` keeps them). */
  constructor(words: readonly string[] | string, top: Uint8Array, set: Uint32Array) {
    const text = typeof words === "string" ? words : words.join("\n");
    const n = typeof words === "string" ? (text === "" ? 0 : countLines(text)) : words.length;
    if (top.length !== n || set.length !== n) throw new RangeError("inconsistent guess arrays");
    this.text = text;
    this.top = top;
    this.set = set;
    this.begin = new Int32Array(n + 1);
    for (let e = 0, at = 0; e < n; e++) {
      this.begin[e] = at;
      const nl = text.indexOf("\n", at);
      at = nl < 0 ? text.length + 1 : nl + 1;
      this.begin[e + 1] = at;
    }
    let cap = 16;
    while (cap < 2 * n) cap *= 2;
    this.table = new Int32Array(cap);
    this.topAtoms = new Int32Array(n);
    this.setAtoms = new Int32Array(n);
    const atomOfTop = new Map<number, number>();
    const atomOfSet = new Map<number, number>();
    for (let e = 0; e < n; e++) {
      // A word listed twice: the later entry wins (as a Map would have it).
      this.table[this.slot(text, this.begin[e]!, this.begin[e + 1]! - 1)] = e + 1;
      const t = top[e]!;
      const s = set[e]!;
      if (!atomOfTop.has(t)) atomOfTop.set(t, topAtom(t));
      if (!atomOfSet.has(s)) atomOfSet.set(s, setAtom(s));
      this.topAtoms[e] = atomOfTop.get(t)!;
      this.setAtoms[e] = atomOfSet.get(s)!;
    }
  }

  /** Word forms (lower-cased) with a guess. */
  get words(): readonly string[] {
    return this.text === "" ? [] : this.text.split("\n");
  }

  /** Entry of a lower-cased word form, or -1. */
  get(lower: string): number {
    const v = this.table[this.slot(lower, 0, lower.length)]!;
    return v - 1;
  }

  /** Slot of the table that holds `s[from, to)` or, if absent, the empty slot where it would go. */
  private slot(s: string, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    const table = this.table;
    const mask = table.length - 1;
    const len = to - from;
    const text = this.text;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const v = table[i]!;
      if (v === 0) return i;
      const b = this.begin[v - 1]!;
      if (this.begin[v]! - 1 - b !== len) continue;
      let k = 0;
      while (k < len && text.charCodeAt(b + k) === s.charCodeAt(from + k)) k++;
      if (k === len) return i;
    }
  }

  /** Atom of the guessed tag of entry e (a fixed atom when e < 0). */
  topAtom(e: number): number {
    return e < 0 ? UNKNOWN_TOP : this.topAtoms[e]!;
  }

  /** Atom of the guessed ambiguity set of entry e (a fixed atom when e < 0). */
  setAtom(e: number): number {
    return e < 0 ? UNKNOWN_SET : this.setAtoms[e]!;
  }

  /** Arrays and metadata to store in a tagger model. */
  toStored(): { meta: { words: string }; arrays: Record<string, ModelArray> } {
    return { meta: { words: this.text }, arrays: { top: this.top, set: this.set } };
  }

  /** Rebuilds a guesser stored with `toStored`. */
  static fromStored(
    meta: unknown,
    arrays: Record<string, ModelArray | undefined>,
    file: string,
  ): WordGuesser {
    const words = (meta as { words?: unknown }).words;
    const { top, set } = arrays;
    if (typeof words !== "string" || !(top instanceof Uint8Array) || !(set instanceof Uint32Array)) {
      throw new VineparseError("model-corrupt", "tagger word guesses are incomplete", file);
    }
    try {
      return new WordGuesser(words, top, set);
    } catch (e) {
      throw new VineparseError("model-corrupt", `tagger word guesses: ${(e as Error).message}`, file);
    }
  }
}

/** Number of newline-separated lines of a non-empty string. */
function countLines(s: string): number {
  let n = 1;
  for (let at = s.indexOf("\n"); at >= 0; at = s.indexOf("\n", at + 1)) n++;
  return n;
}

/** Training words for `trainWordGuesser`: word strings with tag ids (0..numTags). */
export interface GuesserSentence {
  words: readonly string[];
  tags: ArrayLike<number>;
}

/**
 * Trains the guesser: every word of `vectors` gets the arg-max tag and the ambiguity set of a
 * softmax regression over its vector. Word types of the training sentences are split into `folds`
 * folds by a hash of the word; a training word is guessed by the model trained on the other folds,
 * every other word by a model trained on all of them.
 */
export function trainWordGuesser(
  vectors: WordVectors,
  sentences: readonly GuesserSentence[],
  numTags: number,
  opts: WordGuesserOptions = {},
): WordGuesser {
  if (numTags > 32) throw new RangeError(`the guesser handles at most 32 tags, not ${numTags}`);
  const folds = opts.folds ?? 5;
  const epochs = opts.epochs ?? 15;
  const minProb = opts.minProb ?? 0.2;
  const dim = vectors.dim;
  const width = dim + 1;
  // Tag distribution of every training type that has a vector.
  const counts = new Map<number, Float64Array>();
  for (const s of sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const e = vectors.get(s.words[i]!.toLowerCase());
      if (e < 0) continue;
      let c = counts.get(e);
      if (c === undefined) counts.set(e, (c = new Float64Array(numTags)));
      c[s.tags[i]!]! += 1;
    }
  }
  const types = Int32Array.from([...counts.keys()].sort((a, b) => a - b));
  const target = new Float64Array(types.length * numTags);
  const foldOf = new Int32Array(types.length);
  types.forEach((e, k) => {
    const c = counts.get(e)!;
    let total = 0;
    for (let t = 0; t < numTags; t++) total += c[t]!;
    for (let t = 0; t < numTags; t++) target[k * numTags + t] = c[t]! / total;
    foldOf[k] = (hashString(vectors.words[e]!) >>> 0) % folds;
  });
  const input = (e: number, x: Float64Array): void => {
    vectors.vector(e, x);
    for (let j = 0; j < dim; j++) x[j] /= vectors.scale[j]! || 1;
    x[dim] = 1;
  };

  const x = new Float64Array(width);
  const p = new Float64Array(numTags);
  const predict = (w: Float64Array, e: number): void => {
    input(e, x);
    let max = -Infinity;
    for (let t = 0; t < numTags; t++) {
      let s = 0;
      for (let j = 0; j < width; j++) s += w[t * width + j]! * x[j]!;
      p[t] = s;
      if (s > max) max = s;
    }
    let z = 0;
    for (let t = 0; t < numTags; t++) z += p[t] = Math.exp(p[t]! - max);
    for (let t = 0; t < numTags; t++) p[t]! /= z;
  };
  // Softmax regression by AdaGrad on the cross-entropy to each type's tag distribution.
  const train = (heldOut: number): Float64Array => {
    const w = new Float64Array(numTags * width);
    const g2 = new Float64Array(numTags * width).fill(1e-8);
    const rng = new Rng((opts.seed ?? 1) + heldOut * 7919);
    const order: number[] = [];
    for (let k = 0; k < types.length; k++) if (foldOf[k] !== heldOut) order.push(k);
    for (let epoch = 0; epoch < epochs; epoch++) {
      rng.shuffle(order);
      for (const k of order) {
        predict(w, types[k]!);
        for (let t = 0; t < numTags; t++) {
          const d = p[t]! - target[k * numTags + t]!;
          if (d === 0) continue;
          for (let j = 0; j < width; j++) {
            const g = d * x[j]!;
            const o = t * width + j;
            g2[o] += g * g;
            w[o] -= (0.5 * g) / Math.sqrt(g2[o]!);
          }
        }
      }
    }
    return w;
  };

  const n = vectors.size;
  const top = new Uint8Array(n);
  const set = new Uint32Array(n);
  const guess = (w: Float64Array, e: number): void => {
    predict(w, e);
    let best = 0;
    let mask = 0;
    for (let t = 0; t < numTags; t++) {
      if (p[t]! > p[best]!) best = t;
      if (p[t]! >= minProb) mask |= 1 << t;
    }
    top[e] = best;
    set[e] = (mask | (1 << best)) >>> 0;
  };
  const all = train(-1);
  for (let e = 0; e < n; e++) guess(all, e);
  for (let f = 0; f < folds; f++) {
    const w = train(f);
    for (let k = 0; k < types.length; k++) if (foldOf[k] === f) guess(w, types[k]!);
  }
  return new WordGuesser(vectors.words, top, set);
}
