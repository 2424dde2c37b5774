import type { AnnotatedSentence, Pipeline } from "./pipeline.js";
import { noTaggerError } from "./no-tagger.js";
import { rawToConllu } from "./raw-sentence.js";
import { segmentStream, type StreamSegmentOptions } from "./text-stream.js";

/** Options of `parseTextStream`. */
export interface StreamTextOptions extends StreamSegmentOptions {
  /** Prefix of generated sentence ids (default "s"); ids are prefix + running number from 1. */
  idPrefix?: string;
}

/**
 * Splits, tokenizes, tags and parses raw text that arrives in pieces (e.g. `readUtf8Chunks(path)`),
 * yielding each sentence as soon as it is parsed: memory stays bounded whatever the input size (see
 * `segmentStream`), and output can start at once. Spans are offsets into the whole input. Gives the
 * same sentences as `Pipeline.parseText` on the whole text.
 */
export async function* parseTextStream(
  pipeline: Pipeline,
  source: AsyncIterable<string> | Iterable<string>,
  opts: StreamTextOptions = {},
): AsyncGenerator<AnnotatedSentence> {
  if (pipeline.tagger === null) throw noTaggerError();
  const prefix = opts.idPrefix ?? "s";
  let count = 0;
  for await (const { text, offset, sentence } of segmentStream(source, opts)) {
    const a = pipeline.annotate(rawToConllu(text, sentence, `${prefix}${++count}`), true);
    const spans: number[] = [];
    for (const w of sentence.words) spans.push(offset + w.start, offset + w.end);
    a.spans = spans;
    yield a;
  }
}
