import { type ConlluSentence, FORM, UPOS, XPOS } from "../conllu/types.js";
import { formatSentence } from "../conllu/write.js";
import { sentenceFromWords } from "../corpus/sentence.js";
import { Vocabularies } from "../corpus/vocab.js";
import type { DependencyParser } from "../parser/types.js";
import type { PruningCascade } from "../prune/cascade.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { Tagger } from "../tagger/tagger.js";
import { noTaggerError } from "./no-tagger.js";
import { rawToConllu } from "./raw-sentence.js";
import { type SegmentOptions, segmentText } from "./sentence-split.js";
import { formatTree } from "./tree-format.js";

/** A fully annotated sentence (arrays 1-based; index 0 unused). */
export interface AnnotatedSentence {
  /** The CoNLL-U block (from the input, or built from raw text). */
  conllu: ConlluSentence;
  forms: string[];
  upos: string[];
  xpos: string[];
  heads: Int32Array;
  deprels: string[];
  /** True if the decoder fell back because a mask left no tree. */
  fallback: boolean;
  /** From raw text only: [start, end) offsets of each word in the input text, flattened. */
  spans?: number[];
}

/** Options of `Pipeline.parseText`. */
export interface TextOptions extends SegmentOptions {
  /** Prefix of generated sentence ids (default "s"); ids are prefix + running number. */
  idPrefix?: string;
}

/**
 * Raw text → sentences → words → tags → tree → relations. Holds a tagger (optional: without one,
 * input must carry tags) and a parser of any order. Not safe for concurrent use (reused buffers).
 */
export class Pipeline {
  private vocab = new Vocabularies();
  private count = 0;
  /** The pruning cascade run before parsing (default: the parser's own; an empty one = exhaustive). */
  cascade: PruningCascade;

  constructor(
    readonly tagger: Tagger | null,
    readonly parser: DependencyParser,
    cascade?: PruningCascade,
  ) {
    this.cascade = cascade ?? parser.cascade;
  }

  /**
   * Tags (if `retag` or the input has no tags) and parses a CoNLL-U sentence, under `mask` when given
   * (null = every arc), else under the mask the pipeline's cascade leaves.
   */
  annotate(c: ConlluSentence, retag = false, mask?: ArcMask | null): AnnotatedSentence {
    const n = c.words.length;
    const forms = new Array<string>(n);
    let upos = new Array<string>(n);
    let xpos = new Array<string>(n);
    let untagged = false;
    for (let i = 0; i < n; i++) {
      const w = c.words[i]!;
      forms[i] = w[FORM]!;
      upos[i] = w[UPOS]!;
      xpos[i] = w[XPOS]!;
      if (w[UPOS] === "_") untagged = true;
    }
    if (retag || untagged) {
      if (this.tagger === null) throw noTaggerError(c.file, c.startLine || undefined);
      const t = this.tagger.tag(forms);
      upos = t.upos;
      xpos = t.xpos;
    }
    // Forms are interned for feature lookup; start afresh now and then so a long stream stays bounded.
    if (this.vocab.form.size > 1_000_000) this.vocab = new Vocabularies();
    const s = sentenceFromWords(forms, upos, xpos, this.vocab);
    const r = this.parser.parse(
      s,
      this.vocab,
      mask === undefined ? this.cascade.maskFor(s, this.vocab) : mask,
    );
    const labels = this.parser.labels;
    const deprels = new Array<string>(n + 1);
    deprels[0] = "";
    for (let m = 1; m <= n; m++) deprels[m] = labels[r.labels[m]!]!;
    return {
      conllu: c,
      forms: ["", ...forms],
      upos: ["", ...upos],
      xpos: ["", ...xpos],
      heads: r.heads,
      deprels,
      fallback: r.fallback,
    };
  }

  /** Splits, tokenizes, tags and parses raw text. */
  parseText(text: string, opts: TextOptions = {}): AnnotatedSentence[] {
    const prefix = opts.idPrefix ?? "s";
    return segmentText(text, opts).map((s) => {
      const a = this.annotate(rawToConllu(text, s, `${prefix}${++this.count}`), true);
      const spans: number[] = [];
      for (const w of s.words) spans.push(w.start, w.end);
      a.spans = spans;
      return a;
    });
  }
}

/** CoNLL-U of an annotated sentence (tags, heads and relations written into the block). */
export function toConllu(a: AnnotatedSentence): string {
  return formatSentence(a.conllu, { upos: a.upos, xpos: a.xpos, heads: a.heads, deprels: a.deprels });
}

/** Readable indented tree of an annotated sentence, preceded by its text comment if any. */
export function toTreeText(a: AnnotatedSentence): string {
  const text = a.conllu.lines.find((l) => l.startsWith("# text = "));
  const head = text === undefined ? "" : `${text}\n`;
  return (
    head +
    formatTree({ forms: a.forms, upos: a.upos, heads: a.heads, deprels: a.deprels, n: a.forms.length - 1 }) +
    "\n"
  );
}
