import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { createFirstOrderDecoder } from "../decode/first-order-factory.js";
import type { FirstOrderDecoderName as DecoderName, FirstOrderDecoder } from "../decode/types.js";
import { VineparseError } from "../errors.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import type { TemplateTable } from "../features/templates.js";
import {
  floatWeights,
  int16FromPacked,
  int16Weights,
  type ModelData,
  type PackedWeights,
  type QuantizedWeights,
  readModelFile,
  writeModelFile,
} from "../model/model-file.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { PruningCascade } from "../prune/cascade.js";
import { cascadeFromParts } from "../prune/load-pruner.js";
import { ArcScorer } from "./arc-scorer.js";
import { LabelRows } from "./label-rows.js";
import {
  ChildSummary,
  LABEL_FEATURE_SETS,
  labelFeatures,
  labelTemplates,
  MAX_LABEL_FEATURES,
} from "./labeler.js";
import { type DependencyParser, NO_LABELS, type ParseResult } from "./types.js";

/** Version of the feature templates; a model trained with other templates is refused. */
export const FEATURE_VERSION = 5;
/**
 * Version of the parser's model-file layout: 4 = arc weights as their dense 16-bit table and label
 * weights as their rows, each entry one 32-bit word of label and weight (both used as loaded, no
 * copy); 3 = the same with labels and weights in two columns; 2 = both packed (delta-coded
 * non-zeros). 3 and 2 are still read.
 */
export const PARSER_LAYOUT = 4;
/** Older layouts this version still reads. */
const READABLE_LAYOUTS = [2, 3, PARSER_LAYOUT];

/** Settings fixed when a parser is trained. */
export interface ParserConfig {
  /** Factorization order (1 = arc-factored). */
  order: 1;
  /** Decoder: "eisner" (projective) or "mst" (Chu-Liu-Edmonds, non-projective). */
  decoder: DecoderName;
  /** log2 of the arc weight-vector size. */
  bits: number;
  /** log2 of the number of label feature rows. */
  labelBits: number;
  /** Label feature set (`labelTemplates`); absent in models written before set 2: set 1. */
  labelFeatures?: number;
}

/** A trained first-order graph-based dependency parser with a dependency-relation labeller. */
export class Parser implements DependencyParser {
  /** Always 1. */
  readonly order = 1;
  private readonly atoms = new AtomCache();
  private readonly fs = new FeatureSentence();
  private readonly scorer: ArcScorer;
  private readonly decoder: FirstOrderDecoder;
  private readonly lbuf = new Int32Array(MAX_LABEL_FEATURES);
  private readonly kids = new ChildSummary();
  /** The templates of the model's label feature set. */
  private readonly labelSet: TemplateTable;
  private readonly labelRows: LabelRows;
  private readonly arcInt: QuantizedWeights;
  private arcFloat: Float32Array | null;
  /** The pruning cascade stored with the model, run before parsing unless the caller replaces it. */
  cascade: PruningCascade = new PruningCascade();

  constructor(
    readonly config: ParserConfig,
    /**
     * Arc weights (length 2^bits): floats (already quantized, as the trainer makes them), packed, or
     * their 16-bit table (used as is, not copied).
     */
    arcWeights: Float32Array | PackedWeights | QuantizedWeights,
    /**
     * Label weights of a row-major table of (2^labelBits) rows × labels.length: packed (as the
     * trainer makes them), or their rows (used as they are).
     */
    labelWeights: PackedWeights | LabelRows,
    /** Dependency relation names; predictions are indices into this list. */
    readonly labels: string[],
  ) {
    if (arcWeights instanceof Float32Array) {
      this.arcFloat = arcWeights;
      this.arcInt = int16Weights(arcWeights);
    } else if ("weights" in arcWeights) {
      if (arcWeights.weights.length !== 1 << config.bits)
        throw new RangeError(`arc weights have ${arcWeights.weights.length} entries, not 2^${config.bits}`);
      this.arcFloat = null;
      this.arcInt = arcWeights;
    } else {
      this.arcFloat = null;
      this.arcInt = int16FromPacked(arcWeights, 1 << config.bits);
    }
    this.scorer = new ArcScorer(this.arcInt.weights, this.arcInt.scale);
    // A modifier's only allowed head needs no score (see `ArcScorer.skipForced`).
    this.scorer.skipForced = true;
    this.decoder = createFirstOrderDecoder(config.decoder);
    this.labelSet = labelTemplates(config.labelFeatures ?? 1);
    const rows = 1 << config.labelBits;
    if (labelWeights instanceof LabelRows) {
      if (labelWeights.start.length !== rows + 1)
        throw new RangeError(
          `label weights have ${labelWeights.start.length - 1} rows, not 2^${config.labelBits}`,
        );
      this.labelRows = labelWeights;
    } else this.labelRows = LabelRows.fromPacked(labelWeights, rows, labels.length);
  }

  /**
   * Whether parsing under a mask leaves each modifier's only allowed head unscored (on by default; see
   * `ArcScorer.skipForced`): the same trees, up to exact ties, for fewer arcs scored.
   */
  get skipForced(): boolean {
    return this.scorer.skipForced;
  }

  set skipForced(on: boolean) {
    this.scorer.skipForced = on;
  }

  /** Label weights, packed (rebuilt from the scoring rows, which hold the same values). */
  get labelWeights(): PackedWeights {
    return this.labelRows.pack(this.labels.length);
  }

  /** The 16-bit arc weights the parser scores with, and their scale. */
  get quantizedArcWeights(): QuantizedWeights {
    return this.arcInt;
  }

  /** The first-order arc weights (this parser's own), e.g. for a top-k pruning pass. */
  get firstOrderWeights(): QuantizedWeights {
    return this.arcInt;
  }

  /** Arc weights as floats (length 2^bits), materialized on first use when the model was loaded packed. */
  get arcWeights(): Float32Array {
    if (this.arcFloat === null) this.arcFloat = floatWeights(this.arcInt);
    return this.arcFloat;
  }

  /** Parses a sentence (using its form/UPOS/XPOS) whose ids refer to `vocab`; `mask` restricts the arcs. */
  parse(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): ParseResult {
    const r = this.parseUnlabelled(s, vocab, mask);
    r.labels = this.label(this.fs, r.heads);
    return r;
  }

  /** `parse` with `labels` left empty, for `labelTree`. */
  parseUnlabelled(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): ParseResult {
    const x = this.atoms.prepare(s, vocab, this.fs);
    const scorer = this.scorer;
    let r = this.decoder.decode(x.n, scorer.scoreAll(x, mask), mask);
    let arcsScored = scorer.scored;
    if (r.fallback && scorer.forced > 0) {
      // The fallback tree may leave a forced arc for a restored one: it needs their real scores.
      scorer.skipForced = false;
      r = this.decoder.decode(x.n, scorer.scoreAll(x, mask), mask);
      scorer.skipForced = true;
      arcsScored += scorer.scored;
    }
    return { heads: r.heads, labels: NO_LABELS, fallback: r.fallback, arcsScored };
  }

  /** The labels of tree `heads` of sentence `s`, as `parse` assigns them. */
  labelTree(s: Sentence, vocab: Vocabularies, heads: Int32Array): Int32Array {
    return this.label(this.atoms.prepare(s, vocab, this.fs, false), heads);
  }

  /** Feature atoms of the last parsed sentence (for pruning code that shares the parser's features). */
  prepare(s: Sentence, vocab: Vocabularies): FeatureSentence {
    return this.atoms.prepare(s, vocab, this.fs);
  }

  /** Assigns the best label to every arc of a tree. */
  label(x: FeatureSentence, heads: Int32Array): Int32Array {
    const n = x.n;
    const L = this.labels.length;
    const out = new Int32Array(n + 1);
    const rows = this.labelRows;
    const rowMask = (1 << this.config.labelBits) - 1;
    const buf = this.lbuf;
    const kidSummary = this.kids.fill(x, heads);
    for (let m = 1; m <= n; m++) {
      const k = labelFeatures(x, kidSummary, heads[m]!, m, buf, rowMask, this.labelSet);
      const sc = rows.score(buf, k);
      let best = 0;
      for (let l = 1; l < L; l++) if (sc[l]! > sc[best]!) best = l;
      out[m] = best;
    }
    return out;
  }

  /** Maps label indices to the ids of a corpus vocabulary (interning unseen names). */
  labelIds(vocab: Vocabularies): Int32Array {
    const ids = new Int32Array(this.labels.length);
    for (let l = 0; l < this.labels.length; l++) ids[l] = vocab.deprel.add(this.labels[l]!);
    return ids;
  }

  /**
   * The model-file content of this parser (arc weights as their 16-bit table, label weights as
   * their rows of packed entries), with its cascade's passes under `prune/<i>/` unless
   * `withCascade` is false. Both are stored as the parser uses them, so loading copies nothing.
   */
  toModelData(withCascade = true): ModelData {
    const a = this.arcInt;
    const l = this.labelRows;
    const arrays: ModelData["arrays"] = {
      arcWeights: a.weights,
      labelStart: l.start,
      labelEntry: l.entry,
    };
    const meta: Record<string, unknown> = {
      ...this.config,
      featureVersion: FEATURE_VERSION,
      layout: PARSER_LAYOUT,
      labels: this.labels,
      arcScale: a.scale,
      labelScale: l.scale,
    };
    if (withCascade && !this.cascade.empty) meta.prune = this.cascade.toParts(arrays);
    return { kind: "parser", meta, arrays };
  }

  /** Writes the model file (atomically). */
  save(path: string): void {
    writeModelFile(path, this.toModelData());
  }

  /** Loads a model written by `save`. */
  static load(path: string): Parser {
    return Parser.fromModel(readModelFile(path, "parser"), path);
  }

  /** Builds a parser from a decoded order-1 model file (`path` is for error messages). */
  static fromModel(m: ModelData, path: string): Parser {
    const meta = m.meta as unknown as ParserConfig & {
      featureVersion: number;
      layout: number;
      labels: string[];
      arcScale: number;
      labelScale: number;
    };
    if (!READABLE_LAYOUTS.includes(meta.layout)) {
      throw new VineparseError(
        "model-version",
        `parser model layout ${meta.layout} is not supported (expected ${READABLE_LAYOUTS.join(" or ")}); retrain it`,
        path,
      );
    }
    if (meta.featureVersion !== FEATURE_VERSION) {
      throw new VineparseError(
        "model-version",
        `model uses feature set ${meta.featureVersion}, expected ${FEATURE_VERSION}`,
        path,
      );
    }
    if (meta.order !== 1)
      throw new VineparseError("model-kind", `order-${meta.order} models are not supported here`, path);
    if (meta.labelFeatures !== undefined && !LABEL_FEATURE_SETS.includes(meta.labelFeatures))
      throw new VineparseError(
        "model-version",
        `model uses label feature set ${String(meta.labelFeatures)}, expected one of ${LABEL_FEATURE_SETS.join(", ")}`,
        path,
      );
    const config: ParserConfig = {
      order: 1,
      decoder: meta.decoder,
      bits: meta.bits,
      labelBits: meta.labelBits,
    };
    if (meta.labelFeatures !== undefined) config.labelFeatures = meta.labelFeatures;
    const arrays = m.arrays;
    const dense = meta.layout !== 2;
    if (
      dense
        ? !(arrays.arcWeights instanceof Int16Array) ||
          !(arrays.labelStart instanceof Int32Array) ||
          (meta.layout === PARSER_LAYOUT
            ? !(arrays.labelEntry instanceof Int32Array)
            : !(arrays.labelId instanceof Uint16Array) || !(arrays.labelValue instanceof Int16Array))
        : !(arrays.arcDelta instanceof Uint32Array) ||
          !(arrays.arcValue instanceof Int16Array) ||
          !(arrays.labelDelta instanceof Uint32Array) ||
          !(arrays.labelValue instanceof Int16Array)
    ) {
      throw new VineparseError("model-corrupt", "parser model lacks its weight arrays", path);
    }
    if (
      typeof meta.arcScale !== "number" ||
      typeof meta.labelScale !== "number" ||
      !Array.isArray(meta.labels)
    )
      throw new VineparseError("model-corrupt", "parser model lacks its weight scales or labels", path);
    let parser: Parser;
    try {
      const arc: PackedWeights | QuantizedWeights = dense
        ? { weights: arrays.arcWeights as Int16Array, scale: meta.arcScale }
        : {
            delta: arrays.arcDelta as Uint32Array,
            value: arrays.arcValue as Int16Array,
            scale: meta.arcScale,
          };
      const lab: PackedWeights | LabelRows = !dense
        ? {
            delta: arrays.labelDelta as Uint32Array,
            value: arrays.labelValue as Int16Array,
            scale: meta.labelScale,
          }
        : meta.layout === PARSER_LAYOUT
          ? new LabelRows(
              arrays.labelStart as Int32Array,
              arrays.labelEntry as Int32Array,
              meta.labelScale,
              meta.labels.length,
            )
          : LabelRows.fromColumns(
              arrays.labelStart as Int32Array,
              arrays.labelId as Uint16Array,
              arrays.labelValue as Int16Array,
              meta.labelScale,
              meta.labels.length,
            );
      parser = new Parser(config, arc, lab, meta.labels);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new VineparseError("model-corrupt", `parser weights: ${e.message}`, path);
    }
    const prune = (m.meta as { prune?: unknown }).prune;
    if (prune !== undefined)
      parser.cascade = cascadeFromParts(prune, m, path, { parserWeights: parser.quantizedArcWeights });
    return parser;
  }
}
