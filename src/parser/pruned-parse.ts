import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { CascadeStats, type PruningCascade } from "../prune/cascade.js";
import type { DependencyParser, ParseResult } from "./types.js";

/**
 * Sentences parsed together by `parseBlock` and by the CLI (at most; a stream is cut earlier when no
 * more input is ready). The cascade runs over a whole block before the parser does: filters and
 * parsers each read large weight tables at random, and alternating them sentence by sentence makes
 * each evict the other's hot part from the caches (`npm run bench -- filters` times both ways).
 * Every switch from one stage to the next pays again for warming the caches with its table, so
 * longer blocks are faster, and hold more input: on en_ewt dev behind the full filter cascade, a
 * first-order parse in blocks of 1024 is 1.11× faster than in blocks of 256 and blocks of 2048
 * 1.03–1.05× faster again, but every sentence of a block stays in memory through all its stages (a
 * CoNLL-U sentence as read holds about 7 KB), and peak memory grows with the block (docs/performance.md).
 */
export const PARSE_BLOCK = 1024;
/**
 * Words at which the command line and `parseTextStream` end a block before `PARSE_BLOCK` sentences:
 * what a block holds grows with its words (a CoNLL-U word row as read takes about 300 bytes, and the
 * parser's arrays and masks grow with them), so that a block of long sentences holds many times a
 * block of short ones. On en_ewt dev (12.6 words a sentence) a block of 1024 sentences has about
 * 13,000 words and is not cut; dev's sentences of 40 words or more, repeated, peak at 181 MiB
 * (`parse --input`, bundled model) without this bound.
 */
export const PARSE_BLOCK_WORDS = 16384;
/** Bytes of masks (Σ (n + 1)² over its sentences) at which `parseBlock` cuts a block short. */
export const PARSE_BLOCK_MASK_BYTES = 8 << 20;

/**
 * Seconds `parseBlock` spends in each phase, added to over its blocks (for measurements): the
 * cascade's passes (`CascadeStats`, as `PruningCascade.masksFor` keeps them), the unlabelled parses
 * of the final model, and labelling.
 */
export interface BlockTimes {
  cascade: CascadeStats;
  parse: number;
  label: number;
}

/** A `BlockTimes` at zero. */
export function blockTimes(): BlockTimes {
  return { cascade: new CascadeStats(), parse: 0, label: 0 };
}

/** Parses `s` under the mask `cascade` leaves (default: the parser's own cascade; an empty one = exhaustive). */
export function parsePruned(
  parser: DependencyParser,
  s: Sentence,
  vocab: Vocabularies,
  cascade: PruningCascade = parser.cascade,
): ParseResult {
  return parser.parse(s, vocab, cascade.maskFor(s, vocab));
}

/**
 * Parses a block of sentences as `parsePruned` parses each (the same results, in order), in phases:
 * the cascade's masks for every sentence, a pass at a time (`PruningCascade.masksFor`), then the
 * trees, then their labels (the labeller's tables, like each pass's, stay in the caches for a whole
 * phase). Longer blocks are cut at `PARSE_BLOCK` sentences or `PARSE_BLOCK_MASK_BYTES` of masks, so
 * the masks held at once stay bounded. With `times`, each phase's seconds are added to it.
 */
export function parseBlock(
  parser: DependencyParser,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
  cascade: PruningCascade = parser.cascade,
  times?: BlockTimes,
): ParseResult[] {
  const out = new Array<ParseResult>(sentences.length);
  let from = 0;
  while (from < sentences.length) {
    let to = from;
    let bytes = 0;
    while (
      to < sentences.length &&
      to - from < PARSE_BLOCK &&
      (to === from || bytes < PARSE_BLOCK_MASK_BYTES)
    ) {
      const n = sentences[to++]!.n;
      bytes += (n + 1) * (n + 1);
    }
    const masks = cascade.masksFor(sentences.slice(from, to), vocab, times?.cascade);
    const t0 = times === undefined ? 0 : performance.now();
    for (let i = from; i < to; i++) {
      out[i] = parser.parseUnlabelled(sentences[i]!, vocab, masks[i - from]!);
      masks[i - from] = null; // used: not held through the rest of the block
    }
    const t1 = times === undefined ? 0 : performance.now();
    for (let i = from; i < to; i++) out[i]!.labels = parser.labelTree(sentences[i]!, vocab, out[i]!.heads);
    if (times !== undefined) {
      times.parse += (t1 - t0) / 1000;
      times.label += (performance.now() - t1) / 1000;
    }
    from = to;
  }
  return out;
}
