/**
 * Sentence splitting and tokenization of raw text that arrives in pieces (a file or stdin read chunk
 * by chunk): sentences come out as soon as they are complete, and only a bounded tail of the input
 * is held, whatever its size. The sentences are the same as `segmentText` gives for the whole text.
 */
import { type SegmentOptions, segmentText, type TokenizedSentence } from "./sentence-split.js";
import { isSpaceCode } from "./tokenize.js";

/** Options of `segmentStream`. */
export interface StreamSegmentOptions extends SegmentOptions {
  /**
   * Characters of text without a paragraph break (blank line) after which the held text is cut after
   * its last complete sentence (default 65,536). Memory stays bounded as long as sentences are:
   * they are by the `maxWords` cap, unless it is 0.
   */
  chunkChars?: number;
}

/** One sentence of a text stream: `sentence` offsets refer to `text`, which starts at `offset` in the whole input. */
export interface StreamSentence {
  /** The piece of the input the sentence was found in. */
  text: string;
  /** Offset of `text` in the whole input (UTF-16 code units, like every offset here). */
  offset: number;
  /** The sentence, with offsets into `text`. */
  sentence: TokenizedSentence;
}

/** Whether text[from, to) holds only white space other than line breaks. */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Splits and tokenizes raw text given as a sequence of strings (any cut points), yielding sentences
 * in order as soon as they are complete: at every paragraph break (a blank line, or every line break
 * with `newlineBoundary`), and within a long paragraph after its last complete sentence once more
 * than `chunkChars` characters are held.
 */
export async function* segmentStream(
  source: AsyncIterable<string> | Iterable<string>,
  opts: StreamSegmentOptions = {},
): AsyncGenerator<StreamSentence> {
  const limit = Math.max(1, opts.chunkChars ?? 1 << 16);
  const perLine = opts.newlineBoundary ?? false;
  let buf = "";
  let offset = 0; // offset of buf in the whole input
  let lineStart = 0; // start of buf's last (incomplete) line
  let cut = 0; // buf[0, cut) ends at a paragraph break
  let lastSoftTry = 0; // buf length at the last failed attempt to cut inside a paragraph
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    const from = buf.length;
    buf += chunk;
    // Find paragraph breaks among the new lines (each line is looked at once).
    let nl = buf.indexOf("\n", from);
    while (nl >= 0) {
      if (perLine || blank(buf, lineStart, nl)) cut = nl + 1;
      lineStart = nl + 1;
      nl = buf.indexOf("\n", lineStart);
    }
    if (cut > 0) {
      for (const s of segmentText(buf.slice(0, cut), opts)) yield { text: buf, offset, sentence: s };
      buf = buf.slice(cut);
      offset += cut;
      lineStart -= cut;
      cut = 0;
      lastSoftTry = 0;
    }
    if (buf.length > limit && buf.length >= 2 * lastSoftTry) {
      const done = softCut(buf, opts, buf.length > 16 * limit);
      if (done === null) {
        lastSoftTry = buf.length;
        continue;
      }
      for (const s of done.sentences) yield { text: buf, offset, sentence: s };
      buf = buf.slice(done.end);
      offset += done.end;
      lineStart = Math.max(0, lineStart - done.end);
      lastSoftTry = 0;
    }
  }
  if (buf.length > 0) for (const s of segmentText(buf, opts)) yield { text: buf, offset, sentence: s };
}

/**
 * Sentences of a long paragraph that are certainly complete: those before the last sentence that
 * starts after white space (where tokenizing afresh gives the same words), found in the text up to
 * its last white space. With `force`, the last sentence start of any kind will do. Null if none.
 */
function softCut(
  buf: string,
  opts: SegmentOptions,
  force: boolean,
): { sentences: TokenizedSentence[]; end: number } | null {
  let w = buf.length - 1;
  while (w > 0 && !isSpaceCode(buf.charCodeAt(w))) w--;
  if (w <= 0) {
    if (!force) return null;
    w = buf.length;
    // never cut a surrogate pair
    const c = buf.charCodeAt(w - 1);
    if (c >= 0xd800 && c <= 0xdbff) w--;
    if (w <= 0) return null;
    const sentences = segmentText(buf.slice(0, w), opts);
    return sentences.length === 0 ? null : { sentences, end: w };
  }
  const sentences = segmentText(buf.slice(0, w), opts);
  for (let k = sentences.length - 1; k >= 1; k--) {
    const start = sentences[k]!.start;
    if (force || isSpaceCode(buf.charCodeAt(start - 1))) {
      return { sentences: sentences.slice(0, k), end: start };
    }
  }
  return null;
}
