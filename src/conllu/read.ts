import { VineparseError } from "../errors.js";
import { readFileBytes } from "../util/read-file.js";
import { decodeUtf8, readUtf8Lines } from "../util/utf8.js";
import { type ConlluSentence, FORM } from "./types.js";
import { rowKind, validateTree } from "./validate.js";

/** How the reader treats input. */
export interface ReadOptions {
  /** Require a complete, well-formed tree in HEAD (training and gold data). Default true; false for text to parse. */
  requireTree?: boolean;
  /** What to do with a malformed sentence: "abort" throws (default), "skip" drops it and calls `onWarning`. */
  onInvalid?: "abort" | "skip";
  /** Receives the error of every skipped sentence. */
  onWarning?: (err: VineparseError) => void;
  /**
   * Also check what UD's validator and the official scorer reject: more than one word with HEAD 0,
   * an empty FORM, a comment line after a sentence's first word line. Default: the value of
   * `requireTree` (so training and gold data are checked; input to parse or tag is read leniently).
   */
  strict?: boolean;
}

/** A parsed block together with its validated heads. */
export interface ReadSentence {
  sentence: ConlluSentence;
  /** heads[i] for word i (index 0 = -1; all -1 if the input had no heads). */
  heads: Int32Array;
}

/** Accumulates lines into sentence blocks; shared by the synchronous and streaming readers. */
class BlockBuilder {
  private lines: string[] = [];
  private words: string[][] = [];
  private wordLine: number[] = [];
  private startLine = 0;
  private error: VineparseError | null = null;
  private rows = 0;
  private readonly strict: boolean;

  constructor(
    private readonly file: string,
    private readonly opts: ReadOptions,
  ) {
    this.strict = opts.strict ?? opts.requireTree ?? true;
  }

  /** Feeds one line (without its newline); returns a finished sentence at a blank line. */
  push(line: string, lineNo: number): ReadSentence | null {
    // A byte-order mark at the start of the input is dropped (the official scorer rejects it).
    if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line.length === 0 || line === "\r") return this.flush();
    if (this.lines.length === 0) this.startLine = lineNo;
    const idx = this.lines.length;
    this.lines.push(line);
    if (this.error !== null) return null;
    if (line.charCodeAt(0) === 35 /* # */) {
      if (this.strict && this.rows > 0)
        this.error = new VineparseError(
          "conllu-comment",
          "comment inside a sentence (comments go before its first word line)",
          this.file,
          lineNo,
        );
      return null;
    }
    this.rows++;
    const cols = line.split("\t");
    try {
      if (cols.length !== 10) {
        throw new VineparseError(
          "conllu-columns",
          `expected 10 tab-separated columns, found ${cols.length}`,
          this.file,
          lineNo,
        );
      }
      if (this.strict && cols[FORM] === "")
        throw new VineparseError("conllu-form", "empty FORM", this.file, lineNo);
      if (rowKind(cols[0]!, this.file, lineNo) === "word") {
        this.words.push(cols);
        this.wordLine.push(idx);
      }
    } catch (e) {
      if (!(e instanceof VineparseError)) throw e;
      this.error = e;
    }
    return null;
  }

  /** Ends the current block (at a blank line or end of input). */
  flush(): ReadSentence | null {
    if (this.lines.length === 0) return null;
    const sentence: ConlluSentence = {
      lines: this.lines,
      words: this.words,
      wordLine: this.wordLine,
      file: this.file,
      startLine: this.startLine,
    };
    let err = this.error;
    this.lines = [];
    this.words = [];
    this.wordLine = [];
    this.error = null;
    this.rows = 0;
    let heads: Int32Array | null = null;
    if (err === null) {
      if (sentence.words.length === 0) {
        err = new VineparseError("conllu-empty", "sentence has no words", this.file, sentence.startLine);
      } else {
        try {
          heads = validateTree(sentence, this.opts.requireTree ?? true, this.strict);
        } catch (e) {
          if (!(e instanceof VineparseError)) throw e;
          err = e;
        }
      }
    }
    if (err !== null) {
      if ((this.opts.onInvalid ?? "abort") === "abort") throw err;
      this.opts.onWarning?.(err);
      return null;
    }
    return { sentence, heads: heads! };
  }
}

/** Reads CoNLL-U text (already in memory) sentence by sentence. */
export function* parseConllu(
  text: string,
  file = "<input>",
  opts: ReadOptions = {},
): Generator<ReadSentence> {
  const b = new BlockBuilder(file, opts);
  let start = 0;
  let lineNo = 1;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const r = b.push(text.slice(start, end), lineNo);
    if (r !== null) yield r;
    start = end + 1;
    lineNo++;
  }
  const r = b.flush();
  if (r !== null) yield r;
}

/** Reads a whole CoNLL-U file synchronously into memory (fine for treebanks; use `streamConllu` for big inputs). */
export function readConlluFile(path: string, opts: ReadOptions = {}): ReadSentence[] {
  return [...parseConllu(readText(path), path, opts)];
}

/** Reads a file as strict UTF-8 ("FILE:LINE: invalid UTF-8"), turning a missing/unreadable file into a clear VineparseError. */
export function readText(path: string): string {
  return decodeUtf8(readFileBytes(path), path);
}

/** Streams CoNLL-U sentences from a file ("-" = stdin) without reading it all into memory. */
export async function* streamConllu(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadSentence> {
  const name = path === "-" ? "<stdin>" : path;
  const b = new BlockBuilder(name, opts);
  let lineNo = 1;
  // Lines decoded one by one (see `readUtf8Lines`): what a sentence keeps does not pin its input chunk.
  for await (const lines of readUtf8Lines(path, 1 << 20)) {
    for (const line of lines) {
      const r = b.push(line, lineNo++);
      if (r !== null) yield r;
    }
  }
  const r = b.flush();
  if (r !== null) yield r;
}
