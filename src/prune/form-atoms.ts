import type { Sentence } from "../corpus/sentence.js";
import type { Vocab, Vocabularies } from "../corpus/vocab.js";
import { hashString } from "../util/hash.js";

/** Length of the prefixes and suffixes the token-role filter reads (Bergsma & Cherry 2010, Table 2). */
export const AFFIX_LENGTH = 4;

/**
 * The shape of a word as Bergsma & Cherry (2010, Table 2) define it: runs of upper-case letters
 * become "A", runs of lower-case letters "a" (any script with case); we also turn runs of digits into
 * "0", so that numbers share a few shapes instead of each being its own.
 */
export function wordShape(form: string): string {
  return form
    .replace(/\p{Lu}+/gu, "A")
    .replace(/\p{Ll}+/gu, "a")
    .replace(/\p{Nd}+/gu, "0");
}

/** The first `AFFIX_LENGTH` characters of the lower-cased form (the whole form when shorter). */
export function prefixOf(form: string): string {
  return Array.from(form.toLowerCase()).slice(0, AFFIX_LENGTH).join("");
}

/** The last `AFFIX_LENGTH` characters of the lower-cased form (the whole form when shorter). */
export function suffixOf(form: string): string {
  return Array.from(form.toLowerCase()).slice(-AFFIX_LENGTH).join("");
}

const SHAPE_SALT = 0x5a17;
const PREFIX_SALT = 0x9e37;
const SUFFIX_SALT = 0x7f4a;

/**
 * Hashes of a form's shape, 4-letter prefix and 4-letter suffix (kept apart from word hashes by a
 * salt), cached per form id of one vocabulary so each distinct form is analysed once. Not reentrant.
 */
export class FormAtomCache {
  private shape = new Int32Array(0);
  private prefix = new Int32Array(0);
  private suffix = new Int32Array(0);
  private known = 0;
  private boundTo: Vocab | null = null;

  /** Writes the shape, prefix and suffix hashes of sentence `s`'s tokens into positions 1..n of the arrays. */
  fill(s: Sentence, vocab: Vocabularies, shape: Int32Array, prefix: Int32Array, suffix: Int32Array): void {
    const v = vocab.form;
    if (v !== this.boundTo) {
      this.boundTo = v;
      this.known = 0;
    }
    if (this.known < v.size) this.extend(v);
    const form = s.form;
    for (let i = 1; i <= s.n; i++) {
      const f = form[i]!;
      shape[i] = this.shape[f]!;
      prefix[i] = this.prefix[f]!;
      suffix[i] = this.suffix[f]!;
    }
  }

  private extend(v: Vocab): void {
    if (this.shape.length < v.size) {
      const cap = Math.max(v.size, this.shape.length * 2, 1024);
      const grow = (a: Int32Array) => {
        const b = new Int32Array(cap);
        b.set(a.subarray(0, this.known));
        return b;
      };
      this.shape = grow(this.shape);
      this.prefix = grow(this.prefix);
      this.suffix = grow(this.suffix);
    }
    for (let id = this.known; id < v.size; id++) {
      const form = v.strings[id]!;
      this.shape[id] = hashString(wordShape(form)) ^ SHAPE_SALT;
      this.prefix[id] = hashString(prefixOf(form)) ^ PREFIX_SALT;
      this.suffix[id] = hashString(suffixOf(form)) ^ SUFFIX_SALT;
    }
    this.known = v.size;
  }
}
