import { type ReadOptions, type ReadSentence, streamConllu } from "../conllu/read.js";
import { percent } from "../eval/percent.js";
import { oracleReduction } from "../eval/pruning.js";

/** Summary statistics of a treebank (rates in percent). */
export interface CorpusStats {
  sentences: number;
  /** Basic words (multiword-token ranges and empty nodes excluded). */
  tokens: number;
  meanLength: number;
  maxLength: number;
  /** % of sentences with at least one non-projective arc. */
  nonProjectiveSentences: number;
  /** % of arcs that are non-projective. */
  nonProjectiveArcs: number;
  /** Oracle bound on arc-pruning reduction: 100 · (1 − Σn / Σn²). */
  oracleReduction: number;
  nonProjectiveSentenceCount: number;
  nonProjectiveArcCount: number;
  /** Multiword-token range rows (e.g. "3-4"). */
  multiwordTokens: number;
  /** Empty-node rows (e.g. "5.1"). */
  emptyNodes: number;
}

/**
 * Number of non-projective arcs of a tree (heads[m] for m = 1..n, index 0 = root). Arc h→m is
 * non-projective if some word strictly between h and m is not dominated by h. `heads` must be a tree.
 */
export function countNonProjectiveArcs(heads: ArrayLike<number>, n: number): number {
  // Preorder numbering: h dominates k iff pre[h] <= pre[k] <= pre[h] + size[h] - 1.
  const size = n + 1;
  const firstChild = new Int32Array(size).fill(-1);
  const nextSibling = new Int32Array(size).fill(-1);
  for (let m = n; m >= 1; m--) {
    const h = heads[m]!;
    nextSibling[m] = firstChild[h]!;
    firstChild[h] = m;
  }
  const pre = new Int32Array(size);
  const order = new Int32Array(size);
  const stack = new Int32Array(size);
  let sp = 0;
  let counter = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const v = stack[--sp]!;
    pre[v] = counter;
    order[counter++] = v;
    for (let c = firstChild[v]!; c >= 0; c = nextSibling[c]!) stack[sp++] = c;
  }
  const sub = new Int32Array(size).fill(1);
  for (let i = counter - 1; i >= 1; i--) {
    const v = order[i]!;
    sub[heads[v]!]! += sub[v]!;
  }
  let count = 0;
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    if (h === 0) continue; // the root dominates every word
    const lo = Math.min(h, m) + 1;
    const hi = Math.max(h, m) - 1;
    const first = pre[h]!;
    const last = first + sub[h]! - 1;
    for (let k = lo; k <= hi; k++) {
      const p = pre[k]!;
      if (p < first || p > last) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** Whether a tree (heads[m] for m = 1..n) is projective. */
export function isProjective(heads: ArrayLike<number>, n: number): boolean {
  return countNonProjectiveArcs(heads, n) === 0;
}

/** Accumulates `CorpusStats` over sentences, one at a time. */
export class StatsAccumulator {
  private sentences = 0;
  private tokens = 0;
  private squares = 0;
  private maxLength = 0;
  private npSentences = 0;
  private npArcs = 0;
  private mwt = 0;
  private empty = 0;

  /** Adds one tree of n words (heads[m] for m = 1..n). */
  addTree(heads: ArrayLike<number>, n: number): void {
    this.sentences++;
    this.tokens += n;
    this.squares += n * n;
    if (n > this.maxLength) this.maxLength = n;
    const np = countNonProjectiveArcs(heads, n);
    this.npArcs += np;
    if (np > 0) this.npSentences++;
  }

  /** Adds one sentence read from CoNLL-U, also counting its multiword tokens and empty nodes. */
  add(r: ReadSentence): void {
    this.addTree(r.heads, r.sentence.words.length);
    for (const line of r.sentence.lines) {
      if (line.charCodeAt(0) === 35 /* # */) continue;
      const tab = line.indexOf("\t");
      const id = tab < 0 ? line : line.slice(0, tab);
      if (id.includes("-")) this.mwt++;
      else if (id.includes(".")) this.empty++;
    }
  }

  /** The statistics so far. */
  result(): CorpusStats {
    return {
      sentences: this.sentences,
      tokens: this.tokens,
      meanLength: this.sentences === 0 ? 0 : this.tokens / this.sentences,
      maxLength: this.maxLength,
      nonProjectiveSentences: percent(this.npSentences, this.sentences),
      nonProjectiveArcs: percent(this.npArcs, this.tokens),
      oracleReduction: oracleReduction(this.tokens, this.squares),
      nonProjectiveSentenceCount: this.npSentences,
      nonProjectiveArcCount: this.npArcs,
      multiwordTokens: this.mwt,
      emptyNodes: this.empty,
    };
  }
}

/** Statistics of sentences already read. */
export function corpusStats(sentences: Iterable<ReadSentence>): CorpusStats {
  const acc = new StatsAccumulator();
  for (const r of sentences) acc.add(r);
  return acc.result();
}

/** Statistics of a CoNLL-U file ("-" = stdin), streamed so that any size fits in memory. */
export async function fileStats(path: string, opts: ReadOptions = {}): Promise<CorpusStats> {
  const acc = new StatsAccumulator();
  for await (const r of streamConllu(path, opts)) acc.add(r);
  return acc.result();
}
