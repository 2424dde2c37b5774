import type { Sentence } from "../corpus/sentence.js";
import type { Vocab, Vocabularies } from "../corpus/vocab.js";

/** Which tag column a filter reads: PTB-style XPOS (as Bergsma & Cherry did) or UPOS. */
export type TagColumn = "upos" | "xpos";

/** Dense tag id of the artificial root in a `TagMap`. */
export const ROOT_TAG = 0;

/**
 * Maps a corpus vocabulary's tag ids to a filter's own dense tag ids, fixed when the filter was trained:
 * 0 = the root, 1..T = the filter's tags in order, T + 1 = a tag the filter never saw. The mapping of
 * each vocabulary id is computed once and cached; the cache follows the vocabulary as it grows and is
 * rebuilt when a different vocabulary is used. Not reentrant.
 */
export class TagMap {
  /** T + 1: the id of unseen tags. */
  readonly unknown: number;
  /** Number of dense ids (root, T tags, unknown). */
  readonly size: number;
  private readonly index = new Map<string, number>();
  private cache = new Int32Array(0);
  private cached = 0;
  private boundTo: Vocab | null = null;

  constructor(
    /** The filter's tags (dense ids 1..T in this order). */
    readonly tags: readonly string[],
    /** The column they come from. */
    readonly column: TagColumn,
  ) {
    tags.forEach((t, i) => this.index.set(t, i + 1));
    this.unknown = tags.length + 1;
    this.size = tags.length + 2;
  }

  /** The tags of a training corpus's column, in order of first appearance. */
  static collect(sentences: readonly Sentence[], vocab: Vocabularies, column: TagColumn): string[] {
    const v = vocab[column];
    const seen = new Uint8Array(v.size);
    const tags: string[] = [];
    for (const s of sentences) {
      const ids = s[column];
      for (let i = 1; i <= s.n; i++) {
        const id = ids[i]!;
        if (seen[id] === 0) {
          seen[id] = 1;
          tags.push(v.strings[id]!);
        }
      }
    }
    return tags;
  }

  /** XPOS when the training corpus has informative XPOS (more distinct values than UPOS), else UPOS. */
  static chooseColumn(sentences: readonly Sentence[], vocab: Vocabularies): TagColumn {
    const x = TagMap.collect(sentences, vocab, "xpos").filter((t) => t !== "_").length;
    const u = TagMap.collect(sentences, vocab, "upos").length;
    return x > u ? "xpos" : "upos";
  }

  /** Dense id of a tag string (`unknown` when the filter never saw it). */
  id(tag: string): number {
    return this.index.get(tag) ?? this.unknown;
  }

  /** Writes the dense tag ids of `s` into out[0..n] (out[0] = root); `out` must hold n + 1 entries. */
  fill(s: Sentence, vocab: Vocabularies, out: Int32Array): void {
    const v = vocab[this.column];
    if (v !== this.boundTo) {
      this.boundTo = v;
      this.cached = 0;
    }
    if (this.cached < v.size) this.extend(v);
    const ids = s[this.column];
    const cache = this.cache;
    out[0] = ROOT_TAG;
    for (let i = 1; i <= s.n; i++) out[i] = cache[ids[i]!]!;
  }

  private extend(v: Vocab): void {
    if (this.cache.length < v.size) {
      const grown = new Int32Array(Math.max(v.size, this.cache.length * 2, 64));
      grown.set(this.cache.subarray(0, this.cached));
      this.cache = grown;
    }
    for (let id = this.cached; id < v.size; id++) this.cache[id] = this.id(v.strings[id]!);
    this.cached = v.size;
  }
}
