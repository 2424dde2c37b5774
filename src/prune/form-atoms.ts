import type { Vocab } from "../corpus/vocab.js";
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

/** Hash of the lower-cased word (the same as the parser's word atoms). */
export function wordAtom(form: string): number {
  return hashString(form.toLowerCase());
}

/** Hash of the word's shape. */
export function shapeAtom(form: string): number {
  return hashString("\u0003" + wordShape(form));
}

/** Hash of the word's 4-letter prefix. */
export function prefixAtom(form: string): number {
  return hashString("\u0004" + prefixOf(form));
}

/** Hash of the word's 4-letter suffix. */
export function suffixAtom(form: string): number {
  return hashString("\u0005" + suffixOf(form));
}

/** What a `FormTable` reads of a vocabulary: its strings by id, and how many there are. */
export type VocabStrings = Pick<Vocab, "size" | "strings">;

/**
 * A table of `width` integers per form id of one vocabulary, computed once per distinct form by
 * `compute(form, out, at)` and extended as the vocabulary grows (rebuilt when a different vocabulary
 * is used). Filters cache per-form feature hashes in it. Not reentrant.
 */
export class FormTable {
  /** table[id * width + j]: the j-th value of form id. */
  table = new Int32Array(0);
  private known = 0;
  private boundTo: VocabStrings | null = null;

  constructor(
    /** Values per form. */
    readonly width: number,
    /** Fills out[at … at + width) for a form string. */
    private readonly compute: (form: string, out: Int32Array, at: number) => void,
  ) {}

  /** Makes sure every form of `v` has its values (call before reading `table`). */
  bind(v: VocabStrings): void {
    if (v !== this.boundTo) {
      this.boundTo = v;
      this.known = 0;
    }
    if (this.known >= v.size) return;
    const w = this.width;
    if (this.table.length < v.size * w) {
      const grown = new Int32Array(Math.max(v.size, (this.table.length / w) * 2, 1024) * w);
      grown.set(this.table.subarray(0, this.known * w));
      this.table = grown;
    }
    for (let id = this.known; id < v.size; id++) this.compute(v.strings[id]!, this.table, id * w);
    this.known = v.size;
  }
}
