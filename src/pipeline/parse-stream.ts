import type { ConlluSentence } from "../conllu/types.js";
import type { AnnotatedSentence, Pipeline } from "./pipeline.js";
import { noTaggerError } from "./no-tagger.js";
import { rawToConllu } from "./raw-sentence.js";
import { PARSE_BLOCK, PARSE_BLOCK_WORDS } from "../parser/pruned-parse.js";
import { type BlockWeight, readyBlocks } from "../util/blocks.js";
import { segmentStream, type StreamSegmentOptions } from "./text-stream.js";

/** Options of `parseTextStream`. */
export interface StreamTextOptions extends StreamSegmentOptions {
  /** Prefix of generated sentence ids (default "s"); ids are prefix + running number from 1. */
  idPrefix?: string;
}

/** The word bound of a block of sentences (`readyBlocks`' weight): `PARSE_BLOCK_WORDS` words. */
export const BLOCK_WORDS: BlockWeight<{ sentence: { words: unknown[] } }> = {
  weigh: (s) => s.sentence.words.length,
  max: PARSE_BLOCK_WORDS,
};

/** A block of raw-text sentences ready for tagging and parsing (`textBlocks`). */
export interface TextBlock {
  /** The sentences as CoNLL-U without tags (ids and `# text` filled in). */
  cs: ConlluSentence[];
  /** Per sentence, the [start, end) offsets of its words into the whole input, flattened. */
  spans: number[][];
}

/**
 * Splits and tokenizes raw text that arrives in pieces into blocks of sentences, each ready for
 * `Pipeline.annotateEach` (a block of those ready at a time, as `parseTextStream` parses them; see
 * `readyBlocks`). Sentence ids run on from block to block.
 */
export async function* textBlocks(
  source: AsyncIterable<string> | Iterable<string>,
  opts: StreamTextOptions = {},
): AsyncGenerator<TextBlock> {
  const prefix = opts.idPrefix ?? "s";
  let count = 0;
  // A block of the sentences ready at a time (each stage over the whole block: see PARSE_BLOCK and
  // PARSE_BLOCK_WORDS).
  for await (const block of readyBlocks(segmentStream(source, opts), PARSE_BLOCK, false, BLOCK_WORDS)) {
    const cs = block.map(({ text, sentence }) => rawToConllu(text, sentence, `${prefix}${++count}`));
    const spans = block.map(({ offset, sentence }) => {
      const out: number[] = [];
      for (const w of sentence.words) out.push(offset + w.start, offset + w.end);
      return out;
    });
    block.length = 0; // what the parse needs of the block is in cs and spans
    yield { cs, spans };
  }
}

/**
 * Splits, tokenizes, tags and parses raw text that arrives in pieces (e.g. `readUtf8Chunks(path)`),
 * yielding sentences as soon as they are parsed (a block of those ready at a time): memory stays
 * bounded whatever the input size (see `segmentStream`), and output can start at once. Spans are
 * offsets into the whole input. Gives the same sentences as `Pipeline.parseText` on the whole text.
 */
export async function* parseTextStream(
  pipeline: Pipeline,
  source: AsyncIterable<string> | Iterable<string>,
  opts: StreamTextOptions = {},
): AsyncGenerator<AnnotatedSentence> {
  if (!pipeline.hasTagger) throw noTaggerError();
  for await (const { cs, spans } of textBlocks(source, {
    ...opts,
    segmenter: opts.segmenter ?? pipeline.segmenter,
  })) {
    // One at a time (see Pipeline.annotateEach): what the block held for a sentence goes with it.
    let i = 0;
    for (const a of pipeline.annotateEach(cs, true)) {
      a.spans = spans[i]!;
      spans[i++] = [];
      yield a;
    }
  }
}
