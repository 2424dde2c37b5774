import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { ArcMask } from "../mask/arc-mask.js";
import type { PruningCascade } from "./cascade.js";
import type { TagMap } from "./tag-map.js";

/** Direction of an arc between two tokens: the head left of its modifier (h < m). */
export const HEAD_LEFT = 0;
/** Direction of an arc between two tokens: the head right of its modifier (h > m). */
export const HEAD_RIGHT = 1;

/** Index of the [direction, head tag, modifier tag] triple in tables of `2 · size²` entries. */
export function tripleIndex(dir: number, head: number, mod: number, size: number): number {
  return (dir * size + head) * size + mod;
}

/**
 * Counts of a corpus's arcs by [direction, head tag, modifier tag, length] (a filter's dense tag ids), over
 * the arcs that earlier passes leave: every candidate arc and the gold ones. Arcs from the root are
 * counted apart, by modifier tag, since the root has no position (and so no length or direction).
 * Layout: `cell = tripleIndex(dir, h, m, tags) · (maxLength + 1) + length`.
 */
export class TagArcCounts {
  /** Number of dense tag ids (1 when counting by length only). */
  readonly tags: number;
  /** Longest arc (= longest sentence − 1) the tables hold. */
  readonly maxLength: number;
  /** Candidate token→token arcs left by earlier passes, per cell. */
  readonly all: Int32Array;
  /** Gold token→token arcs left by earlier passes, per cell. */
  readonly gold: Int32Array;
  /** Candidate root arcs left by earlier passes, by modifier tag. */
  readonly rootAll: Int32Array;
  /** Gold root arcs left by earlier passes, by modifier tag. */
  readonly rootGold: Int32Array;
  /** Sentences counted. */
  sentences = 0;
  /** Tokens (= gold arcs before any pass). */
  tokens = 0;
  /** Every possible arc before any pass: Σ n². */
  arcs = 0;

  private constructor(tags: number, maxLength: number) {
    this.tags = tags;
    this.maxLength = maxLength;
    const cells = 2 * tags * tags * (maxLength + 1);
    this.all = new Int32Array(cells);
    this.gold = new Int32Array(cells);
    this.rootAll = new Int32Array(tags);
    this.rootGold = new Int32Array(tags);
  }

  /** Gold arcs earlier passes left (root arcs included). */
  get goldKept(): number {
    let g = 0;
    for (let i = 0; i < this.gold.length; i++) g += this.gold[i]!;
    for (let i = 0; i < this.rootGold.length; i++) g += this.rootGold[i]!;
    return g;
  }

  /** Arcs earlier passes left (root arcs included). */
  get kept(): number {
    let a = 0;
    for (let i = 0; i < this.all.length; i++) a += this.all[i]!;
    for (let i = 0; i < this.rootAll.length; i++) a += this.rootAll[i]!;
    return a;
  }

  /**
   * Counts the arcs of `sentences` (gold heads) that `prefix` leaves (every arc when absent), by the tags
   * of `tagMap` (by length only when it is null: one tag).
   */
  static collect(
    sentences: readonly Sentence[],
    vocab: Vocabularies,
    tagMap: TagMap | null,
    prefix?: PruningCascade,
  ): TagArcCounts {
    let longest = 1;
    for (const s of sentences) if (s.n > longest) longest = s.n;
    const S = tagMap === null ? 1 : tagMap.size;
    const c = new TagArcCounts(S, longest - 1);
    const L1 = c.maxLength + 1;
    const tags = new Int32Array(longest + 1);
    const usePrefix = prefix !== undefined && !prefix.empty;
    for (const s of sentences) {
      const n = s.n;
      const size = n + 1;
      if (tagMap !== null) tagMap.fill(s, vocab, tags);
      const bits = usePrefix ? prefix.prune(s, vocab).bits : ArcMask.full(n).bits;
      const head = s.head;
      c.sentences++;
      c.tokens += n;
      c.arcs += n * n;
      for (let m = 1; m <= n; m++) {
        const tm = tags[m]!;
        const g = head[m]!;
        if (bits[m] === 1) {
          c.rootAll[tm]!++;
          if (g === 0) c.rootGold[tm]!++;
        }
        for (let h = 1; h <= n; h++) {
          if (h === m || bits[h * size + m] === 0) continue;
          const dir = h < m ? HEAD_LEFT : HEAD_RIGHT;
          const cell = tripleIndex(dir, tags[h]!, tm, S) * L1 + (h < m ? m - h : h - m);
          c.all[cell]!++;
          if (g === h) c.gold[cell]!++;
        }
      }
    }
    return c;
  }
}
