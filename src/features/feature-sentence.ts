import type { Sentence } from "../corpus/sentence.js";
import type { Vocab, Vocabularies } from "../corpus/vocab.js";
import { hashString } from "../util/hash.js";

import { BOS, EOS } from "./atoms.js";
import { BetweenTags, fillHeadPrefixes } from "./first-order.js";

export { BOS, EOS };
const ROOT_WORD = hashString("<root>");
const ROOT_TAG = hashString("<root-tag>");

/**
 * Per-token feature atoms of a sentence (32-bit hashes of strings, computed once per sentence):
 * lower-cased word, 5-character prefix, XPOS and UPOS. Arrays have n + 2 entries: 0 = root,
 * 1..n = tokens, n + 1 = end-of-sentence sentinel. `cat` holds small dense UPOS ids for in-between features.
 */
export class FeatureSentence {
  n = 0;
  word: Int32Array = new Int32Array(0);
  prefix: Int32Array = new Int32Array(0);
  /** Hash of the lower-cased word's last 3 characters (the word itself when it is that short). */
  suffix: Int32Array = new Int32Array(0);
  xpos: Int32Array = new Int32Array(0);
  upos: Int32Array = new Int32Array(0);
  /** Dense category id (UPOS vocabulary id) per position; root and sentinel get 0. */
  cat: Int32Array = new Int32Array(0);
  /** XPOS vocabulary id per position (dense, for de-duplicating in-between XPOS). */
  xposId: Int32Array = new Int32Array(0);
  /** Scratch: the modifier-side atoms of the arc whose pair features are being extracted. */
  readonly modAtoms: Int32Array = new Int32Array(16);
  /** Head-side template states of the pair features, HEAD_SLOTS per position (see first-order.ts). */
  headPre: Int32Array = new Int32Array(0);
  /** Size of the UPOS vocabulary (bound of `cat`). */
  numCats = 0;
  /** Size of the XPOS vocabulary (bound of `xposId`). */
  numXpos = 0;
  /** Scratch for the in-between tags of `arcFeatures`. */
  readonly between = new BetweenTags();
}

/** Caches per-form atoms (lower-cased word hash, prefix hash) so each distinct form is lower-cased once. */
export class AtomCache {
  private word = new Int32Array(1024);
  private prefix = new Int32Array(1024);
  private suffix = new Int32Array(1024);
  private known = new Uint8Array(1024);
  private boundTo: Vocab | null = null;

  /**
   * Fills `fs` with the atoms of sentence `s` (whose ids refer to `vocab`); with `pairs` false, not
   * the head-side states of the pair features (`headPre`), which only arc scoring reads.
   */
  prepare(s: Sentence, vocab: Vocabularies, fs: FeatureSentence, pairs = true): FeatureSentence {
    if (vocab.form !== this.boundTo) {
      // Ids are only meaningful within one vocabulary: forget everything learned for another.
      this.known.fill(0);
      this.boundTo = vocab.form;
    }
    const n = s.n;
    if (fs.word.length < n + 2) {
      const cap = Math.max(n + 2, fs.word.length * 2, 64);
      fs.word = new Int32Array(cap);
      fs.prefix = new Int32Array(cap);
      fs.suffix = new Int32Array(cap);
      fs.xpos = new Int32Array(cap);
      fs.upos = new Int32Array(cap);
      fs.cat = new Int32Array(cap);
      fs.xposId = new Int32Array(cap);
    }
    fs.n = n;
    fs.word[0] = ROOT_WORD;
    fs.prefix[0] = ROOT_WORD;
    fs.suffix[0] = ROOT_WORD;
    fs.xpos[0] = ROOT_TAG;
    fs.upos[0] = ROOT_TAG;
    fs.cat[0] = 0;
    const numCats = vocab.upos.size;
    for (let i = 1; i <= n; i++) {
      const f = s.form[i]!;
      if (f >= this.known.length || this.known[f] === 0) this.learn(f, vocab.form.strings[f]!);
      fs.word[i] = this.word[f]!;
      fs.prefix[i] = this.prefix[f]!;
      fs.suffix[i] = this.suffix[f]!;
      fs.xpos[i] = vocab.xpos.hash(s.xpos[i]!);
      fs.upos[i] = vocab.upos.hash(s.upos[i]!);
      fs.cat[i] = s.upos[i]!;
      fs.xposId[i] = s.xpos[i]!;
    }
    fs.word[n + 1] = EOS;
    fs.prefix[n + 1] = EOS;
    fs.suffix[n + 1] = EOS;
    fs.xpos[n + 1] = EOS;
    fs.upos[n + 1] = EOS;
    fs.cat[n + 1] = 0;
    fs.numCats = numCats;
    fs.numXpos = vocab.xpos.size;
    if (pairs) fillHeadPrefixes(fs);
    return fs;
  }

  private learn(id: number, form: string): void {
    if (id >= this.known.length) {
      let cap = this.known.length;
      while (cap <= id) cap *= 2;
      const w = new Int32Array(cap);
      w.set(this.word);
      this.word = w;
      const p = new Int32Array(cap);
      p.set(this.prefix);
      this.prefix = p;
      const x = new Int32Array(cap);
      x.set(this.suffix);
      this.suffix = x;
      const k = new Uint8Array(cap);
      k.set(this.known);
      this.known = k;
    }
    const lower = form.toLowerCase();
    const w = hashString(lower);
    this.word[id] = w;
    this.prefix[id] = lower.length > 5 ? hashString("\u0001" + lower.slice(0, 5)) : w;
    this.suffix[id] = lower.length > 3 ? hashString("\u0002" + lower.slice(-3)) : w;
    this.known[id] = 1;
  }
}
