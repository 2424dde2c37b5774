import { type ConlluSentence, FEATS, FORM, LEMMA, MISC, UPOS, XPOS } from "../conllu/types.js";
import { formatSentence } from "../conllu/write.js";
import { sentenceFromWords } from "../corpus/sentence.js";
import { Vocabularies } from "../corpus/vocab.js";
import { type BlockTimes, blockTimes, parseBlock } from "../parser/pruned-parse.js";
import type { DependencyParser, ParseResult } from "../parser/types.js";
import type { PruningCascade } from "../prune/cascade.js";
import { ArcMask } from "../mask/arc-mask.js";
import type { MorphModel } from "../morph/morph-model.js";
import type { Tagger } from "../tagger/tagger.js";
import { noTaggerError } from "./no-tagger.js";
import { rawToConllu } from "./raw-sentence.js";
import { ENGLISH_RULES, type SegmentOptions, type Segmenter, segmentText } from "./sentence-split.js";
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
  /** Lemmas and FEATS from the pipeline's morph model, when it ran on the sentence (see `Pipeline.morphMode`). */
  lemmas?: string[];
  feats?: string[];
  /** True if the decoder fell back because a mask left no tree. */
  fallback: boolean;
  /** From raw text only: [start, end) offsets of each word in the input text, flattened. */
  spans?: number[];
}

/** The arcs of a sentence still allowed after one stage of pruning (see `Pipeline.pruningStages`). */
export interface PruningStage {
  /** "all arcs" for the first stage, else the pass's kind ("joint", "maxmarginal", …). */
  name: string;
  /** The pass's own description (`ArcPruner.describe`, first line; empty for "all arcs"). */
  description: string;
  /** (n + 1)² cells: bits[h · (n + 1) + m] = 1 while arc h→m is allowed. */
  bits: Uint8Array;
  /** Arcs allowed (of n² candidates). */
  kept: number;
}

/** Options of `Pipeline.parseText`. */
export interface TextOptions extends SegmentOptions {
  /** Prefix of generated sentence ids (default "s"); ids are prefix + running number. */
  idPrefix?: string;
}

/** Seconds a pipeline spends in each stage of `annotateEach` (see `Pipeline.times`). */
export interface PipelineTimes extends BlockTimes {
  /** Tagging (and gathering each sentence's words and tags). */
  tag: number;
  /** Lemmas and FEATS. */
  morph: number;
}

/** A `PipelineTimes` at zero. */
export function pipelineTimes(): PipelineTimes {
  return { ...blockTimes(), tag: 0, morph: 0 };
}

/**
 * When a pipeline's morph model fills LEMMA and FEATS: "tagged" (the default) for the sentences the
 * pipeline tags itself (raw text, CoNLL-U without tags, retagging), keeping those of CoNLL-U read
 * with its tags; "always" for every sentence; "never".
 */
export type MorphMode = "tagged" | "always" | "never";

/**
 * Interned forms after which a pipeline starts a fresh vocabulary (`Pipeline.maxForms`): a few MiB of
 * strings and per-form caches, and more than the distinct forms of a whole treebank's training text
 * such as en_ewt's, so ordinary text seldom reaches it; a stream of new words does.
 */
export const PIPELINE_MAX_FORMS = 65536;

/**
 * Raw text → sentences → words → tags → tree → relations. Holds a tagger (optional: without one,
 * input must carry tags) and a parser of any order. Not safe for concurrent use (reused buffers).
 */
export class Pipeline {
  private vocab = new Vocabularies();
  private count = 0;
  private readonly taggerPart: LazyPart<Tagger>;
  private readonly morphPart: LazyPart<MorphModel>;
  private readonly tokenizerPart: LazyPart<Segmenter>;
  /** When the morph model (if any) fills LEMMA and FEATS (see `MorphMode`). */
  morphMode: MorphMode = "tagged";
  /** The pruning cascade run before parsing (default: the parser's own; an empty one = exhaustive). */
  cascade: PruningCascade;
  /** When set, `annotateEach` (and `annotateBlock`, `parseText`) add each stage's seconds to it. */
  times: PipelineTimes | null = null;
  /** Interned forms after which the next block starts a fresh vocabulary (see `freshVocab`). */
  maxForms = PIPELINE_MAX_FORMS;

  /**
   * `tagger` may be a function that builds it, called when the tagger is first needed (input to tag),
   * so that a pipeline given tagged input never holds the tagger's tables; so may `morph`, the
   * lemmatizer and FEATS tagger (null: none), and `tokenizer`, the tokenizer and sentence splitter of
   * raw text (null: the rule-based English ones).
   */
  constructor(
    tagger: Tagger | (() => Tagger) | null,
    readonly parser: DependencyParser,
    cascade?: PruningCascade,
    morph: MorphModel | (() => MorphModel) | null = null,
    tokenizer: Segmenter | (() => Segmenter) | null = null,
  ) {
    this.taggerPart = new LazyPart(tagger);
    this.morphPart = new LazyPart(morph);
    this.tokenizerPart = new LazyPart(tokenizer);
    this.cascade = cascade ?? parser.cascade;
  }

  /** How raw text is cut into sentences and words: the model's learned tokenizer, or the English rules. */
  get segmenter(): Segmenter {
    return this.tokenizerPart.value ?? ENGLISH_RULES;
  }

  /** The morph model (null: none), built now if it was given as a function and not built yet. */
  get morph(): MorphModel | null {
    return this.morphPart.value;
  }

  /** Whether the pipeline has a morph model (built or not yet). */
  get hasMorph(): boolean {
    return this.morphPart.present;
  }

  /** The tagger (null: none), built now if it was given as a function and not built yet. */
  get tagger(): Tagger | null {
    return this.taggerPart.value;
  }

  /** Forms interned in the current vocabulary (at most about `maxForms` plus a block's). */
  get internedForms(): number {
    return this.vocab.form.size;
  }

  /** Whether the pipeline has a tagger (built or not yet). */
  get hasTagger(): boolean {
    return this.taggerPart.present;
  }

  /**
   * Tags (if `retag` or the input has no tags) and parses a CoNLL-U sentence, under `mask` when given
   * (null = every arc), else under the mask the pipeline's cascade leaves.
   */
  annotate(c: ConlluSentence, retag = false, mask?: ArcMask | null): AnnotatedSentence {
    if (mask === undefined) return this.annotateBlock([c], retag)[0]!;
    const w = this.words(c, retag);
    this.addMorph(w);
    this.freshVocab();
    const s = sentenceFromWords(w.forms, w.upos, w.xpos, this.vocab);
    return this.assemble(c, w, this.parser.parse(s, this.vocab, mask));
  }

  /**
   * Annotates sentences as `annotate` does each (the same results, in order), a stage at a time over
   * the block: tagging, then the cascade's masks, then parsing (see `parseBlock`), so that each
   * model's tables stay in the caches through its stage.
   */
  annotateBlock(cs: readonly ConlluSentence[], retag = false): AnnotatedSentence[] {
    return [...this.annotateEach(cs.slice(), retag)];
  }

  /**
   * `annotateBlock`'s results one at a time, for a caller that writes each out before it takes the
   * next: the block is tagged and parsed at once, but each annotated sentence is made only when asked
   * for, and what the block held for a sentence (its words, its parse, its entry of `cs`: `cs` is
   * emptied as the sentences are yielded) is let go of once it is yielded, so that a block's input
   * and output are never all held at once.
   */
  *annotateEach(cs: (ConlluSentence | undefined)[], retag = false): Generator<AnnotatedSentence> {
    const n = cs.length;
    const times = this.times;
    const t0 = times === null ? 0 : performance.now();
    const words: (Words | undefined)[] = cs.map((c) => this.words(c!, retag));
    const t1 = times === null ? 0 : performance.now();
    if (times !== null) times.tag += (t1 - t0) / 1000;
    if (this.morphMode !== "never" && this.hasMorph) {
      for (const w of words) this.addMorph(w!);
      if (times !== null) times.morph += (performance.now() - t1) / 1000;
    }
    this.freshVocab();
    const results: (ParseResult | undefined)[] = parseBlock(
      this.parser,
      words.map((w) => sentenceFromWords(w!.forms, w!.upos, w!.xpos, this.vocab)),
      this.vocab,
      this.cascade,
      times ?? undefined,
    );
    for (let i = 0; i < n; i++) {
      const a = this.assemble(cs[i]!, words[i]!, results[i]!);
      cs[i] = words[i] = results[i] = undefined;
      yield a;
    }
    cs.length = 0;
  }

  /**
   * What the pipeline's cascade does to an annotated sentence (one this pipeline made): the arcs
   * allowed before any pass ("all arcs"), then after each pass, from the sentence's words and tags as
   * annotated. The parse of `a` is the best tree under the last stage's arcs (or a fallback tree when
   * they admit none; see `AnnotatedSentence.fallback`).
   */
  pruningStages(a: AnnotatedSentence): PruningStage[] {
    const s = sentenceFromWords(a.forms.slice(1), a.upos.slice(1), a.xpos.slice(1), this.vocab);
    const stage = (name: string, description: string, mask: ArcMask): PruningStage => {
      let kept = 0;
      for (const b of mask.bits) kept += b;
      return { name, description, bits: mask.bits.slice(), kept };
    };
    const mask = ArcMask.full(s.n);
    const stages = [stage("all arcs", "", mask)];
    const passes = this.cascade.passes;
    this.cascade.prune(s, this.vocab, mask, undefined, (i, m) => {
      const p = passes[i]!;
      stages.push(stage(p.kind, p.describe().split("\n")[0]!, m));
    });
    return stages;
  }

  /** Splits, tokenizes, tags and parses raw text. */
  parseText(text: string, opts: TextOptions = {}): AnnotatedSentence[] {
    const prefix = opts.idPrefix ?? "s";
    const segments = segmentText(text, { ...opts, segmenter: opts.segmenter ?? this.segmenter });
    const blocks = segments.map((s) => rawToConllu(text, s, `${prefix}${++this.count}`));
    return this.annotateBlock(blocks, true).map((a, i) => {
      const spans: number[] = [];
      for (const w of segments[i]!.words) spans.push(w.start, w.end);
      a.spans = spans;
      return a;
    });
  }

  /** The words of a CoNLL-U sentence with their tags: the input's, or the tagger's (if `retag` or any is missing). */
  private words(c: ConlluSentence, retag: boolean): Words {
    const n = c.words.length;
    const forms = new Array<string>(n);
    let upos = new Array<string>(n);
    let xpos = new Array<string>(n);
    let untagged = false;
    let tagged = false;
    for (let i = 0; i < n; i++) {
      const w = c.words[i]!;
      forms[i] = w[FORM]!;
      upos[i] = w[UPOS]!;
      xpos[i] = w[XPOS]!;
      if (w[UPOS] === "_") untagged = true;
    }
    if (retag || untagged) {
      const tagger = this.tagger;
      if (tagger === null) throw noTaggerError(c.file, c.startLine || undefined);
      const t = tagger.tag(forms);
      upos = t.upos;
      xpos = t.xpos;
      tagged = true;
    }
    return { forms, upos, xpos, tagged, lemmas: null, feats: null };
  }

  /** Lemmas and FEATS of a sentence's words, if the morph mode asks for them there. */
  private addMorph(w: Words): void {
    const mode = this.morphMode;
    if (mode === "never" || (mode === "tagged" && !w.tagged)) return;
    const morph = this.morph;
    if (morph === null) return;
    const r = morph.predict({ words: w.forms, upos: w.upos, xpos: w.xpos });
    w.lemmas = r.lemmas;
    w.feats = r.feats;
  }

  /**
   * Forms are interned for feature lookup, and the caches of the parser and the filters learn each
   * form's atoms by its id: a stream of new words (names, numbers, typos) would make them grow
   * without end. So once `maxForms` forms are interned, the next block starts a fresh vocabulary
   * (the caches notice and start again): the same output, for memory bounded by about `maxForms`
   * forms plus a block's.
   */
  private freshVocab(): void {
    if (this.vocab.form.size > this.maxForms) this.vocab = new Vocabularies();
  }

  /** The annotated sentence of `c` from its words and parse. */
  private assemble(c: ConlluSentence, w: Words, r: ParseResult): AnnotatedSentence {
    const n = w.forms.length;
    const labels = this.parser.labels;
    const deprels = new Array<string>(n + 1);
    deprels[0] = "";
    for (let m = 1; m <= n; m++) deprels[m] = labels[r.labels[m]!]!;
    const a: AnnotatedSentence = {
      conllu: c,
      forms: ["", ...w.forms],
      upos: ["", ...w.upos],
      xpos: ["", ...w.xpos],
      heads: r.heads,
      deprels,
      fallback: r.fallback,
    };
    if (w.lemmas !== null) a.lemmas = ["", ...w.lemmas];
    if (w.feats !== null) a.feats = ["", ...w.feats];
    return a;
  }
}

/** A model a pipeline holds, or the function that builds it when first asked for (null: none). */
class LazyPart<T> {
  private built: T | null;
  private make: (() => T) | null;

  constructor(part: T | (() => T) | null) {
    this.built = typeof part === "function" ? null : part;
    this.make = typeof part === "function" ? (part as () => T) : null;
  }

  /** The model, built now if it was not yet (null: none). */
  get value(): T | null {
    if (this.make !== null) {
      this.built = this.make();
      this.make = null;
    }
    return this.built;
  }

  /** Whether there is a model (built or not yet). */
  get present(): boolean {
    return this.built !== null || this.make !== null;
  }
}

/** A sentence's forms and tags (0-based), and its lemmas and FEATS once the morph model ran. */
interface Words {
  forms: string[];
  upos: string[];
  xpos: string[];
  /** Whether the tags are the tagger's. */
  tagged: boolean;
  lemmas: string[] | null;
  feats: string[] | null;
}

/** CoNLL-U of an annotated sentence (tags, lemmas and FEATS if made, heads and relations written into the block). */
export function toConllu(a: AnnotatedSentence): string {
  return formatSentence(a.conllu, {
    upos: a.upos,
    xpos: a.xpos,
    heads: a.heads,
    deprels: a.deprels,
    ...(a.lemmas === undefined ? {} : { lemmas: a.lemmas }),
    ...(a.feats === undefined ? {} : { feats: a.feats }),
  });
}

/** One word of `toJsonLine`'s output; absent CoNLL-U values ("_") are null. */
export interface JsonWord {
  id: number;
  form: string;
  lemma: string | null;
  upos: string | null;
  xpos: string | null;
  feats: string | null;
  head: number;
  deprel: string;
  misc: string | null;
  /** From raw text only: [start, end) offsets of the word in the input text (UTF-16 code units). */
  start?: number;
  end?: number;
}

/** A multiword token (CoNLL-U range row) of `toJsonLine`'s output: words first..last, and its surface form. */
export interface JsonToken {
  first: number;
  last: number;
  form: string;
  misc: string | null;
}

/** One sentence of `toJsonLine`'s output. */
export interface JsonSentence {
  /** The `# sent_id` comment, null if none. */
  id: string | null;
  /** The `# text` comment, null if none. */
  text: string | null;
  words: JsonWord[];
  /** Multiword tokens, in order (empty if none). */
  tokens: JsonToken[];
}

/** The value of a sentence's `# key = value` comment, or null if it has none. */
function commentOf(c: ConlluSentence, key: string): string | null {
  const prefix = `# ${key} = `;
  const line = c.lines.find((l) => l.startsWith(prefix));
  return line === undefined ? null : line.slice(prefix.length);
}

/** An annotated sentence as a JSON object (what `toJsonLine` writes). */
export function toJson(a: AnnotatedSentence): JsonSentence {
  const c = a.conllu;
  const value = (x: string | undefined): string | null => (x === undefined || x === "_" ? null : x);
  const words: JsonWord[] = [];
  for (let i = 1; i <= c.words.length; i++) {
    const w = c.words[i - 1]!;
    const word: JsonWord = {
      id: i,
      form: w[FORM]!,
      lemma: value(a.lemmas?.[i] ?? w[LEMMA]),
      upos: value(a.upos[i]),
      xpos: value(a.xpos[i]),
      feats: value(a.feats?.[i] ?? w[FEATS]),
      head: a.heads[i]!,
      deprel: a.deprels[i]!,
      misc: value(w[MISC]),
    };
    if (a.spans !== undefined) {
      word.start = a.spans[2 * (i - 1)]!;
      word.end = a.spans[2 * (i - 1) + 1]!;
    }
    words.push(word);
  }
  const tokens: JsonToken[] = [];
  for (const line of c.lines) {
    const m = /^(\d+)-(\d+)\t/.exec(line);
    if (m === null) continue;
    const cols = line.split("\t");
    tokens.push({ first: Number(m[1]), last: Number(m[2]), form: cols[FORM] ?? "", misc: value(cols[MISC]) });
  }
  return { id: commentOf(c, "sent_id"), text: commentOf(c, "text"), words, tokens };
}

/** An annotated sentence as one line of JSON (`parse --format json`, JSON Lines: a sentence a line). */
export function toJsonLine(a: AnnotatedSentence): string {
  return JSON.stringify(toJson(a)) + "\n";
}

/** Readable indented tree of an annotated sentence, preceded by its text comment if any. */
export function toTreeText(a: AnnotatedSentence): string {
  const text = commentOf(a.conllu, "text");
  const head = text === null ? "" : `# text = ${text}\n`;
  return (
    head +
    formatTree({ forms: a.forms, upos: a.upos, heads: a.heads, deprels: a.deprels, n: a.forms.length - 1 }) +
    "\n"
  );
}
