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

/**
 * Splits, tokenizes, tags and parses raw text that arrives in pieces (e.g. `readUtf8Chunks(path)`),
 * yielding sentences as soon as they are parsed (a block of those ready at a time): memory stays
 * bounded whatever the input size (see `segmentStream`), and output can start at once. Spans are offsets into the whole input. Gives the
 * same sentences as `Pipeline.parseText` on the whole text.
 */
export async function* parseTextStream(
  pipeline: Pipeline,
  source: AsyncIterable<string> | Iterable<string>,
  opts: StreamTextOptions = {},
): AsyncGenerator<AnnotatedSentence> {
  if (!pipeline.hasTagger) throw noTaggerError();
  const prefix = opts.idPrefix ?? "s";
  let count = 0;
  // A block of the sentences ready at a time (each stage over the whole block: see PARSE_BLOCK and
  // PARSE_BLOCK_WORDS).
  for await (const block of readyBlocks(segmentStream(source, opts), PARSE_BLOCK, false, BLOCK_WORDS)) {
    const cs = block.map(({ text, sentence }) => rawToConllu(text, sentence, `${prefix}${++count}`));
    // One at a time (see Pipeline.annotateEach): what the block held for a sentence goes with it.
    let i = 0;
    for (const a of pipeline.annotateEach(cs, true)) {
      const { offset, sentence } = block[i++]!;
      const spans: number[] = [];
      for (const w of sentence.words) spans.push(offset + w.start, offset + w.end);
      a.spans = spans;
      yield a;
    }
  }
}
