import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { HigherOrderParse } from "../decode/parts-types.js";
import { SecondOrderDecoder } from "../decode/second-order.js";
import { ThirdOrderDecoder } from "../decode/third-order.js";
import { VineparseError } from "../errors.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import {
  type ModelData,
  floatWeights,
  int16FromPacked,
  int16Weights,
  type QuantizedWeights,
  readModelFile,
  writeModelFile,
} from "../model/model-file.js";
import { ArcMask } from "../mask/arc-mask.js";
import { PruningCascade } from "../prune/cascade.js";
import { cascadeFromParts } from "../prune/load-pruner.js";
import { type PruneRank, TopKPruner } from "../prune/top-k.js";
import { HigherOrderScorer } from "./higher-order-scorer.js";
import { Parser } from "./parser.js";
import { type DependencyParser, NO_LABELS, type ParseResult } from "./types.js";

/** Version of the sibling / grand-sibling feature templates and weight layout; other models are refused. */
export const HIGHER_ORDER_FEATURE_VERSION = 6;
/**
 * Model-file layout of the higher-order weights: 2 = their dense 16-bit table (`weights`, used as
 * loaded, no copy); 1 (no `layout` field) = packed non-zeros (`weightDelta`, `weightValue`), still read.
 */
export const HIGHER_ORDER_LAYOUT = 2;

/** Settings fixed when a higher-order parser is trained. */
export interface HigherOrderConfig {
  /** 2 = sibling parts (McDonald & Pereira 2006); 3 = grand-sibling parts (Koo & Collins 2010, Model 1). */
  order: 2 | 3;
  /** log2 of the weight-vector size. */
  bits: number;
  /**
   * log2 of the region at the start of the table that sibling, grandparent and grand-sibling features
   * hash into (`partRegionMask`); absent in models written before it: the whole table.
   */
  partBits?: number;
}

/** A parse with the higher-order bookkeeping. */
export interface HigherOrderParseResult extends ParseResult {
  /** Arcs left after pruning (what the higher-order decoder could use). */
  arcsKept: number;
  /** Sibling / grandparent / grand-sibling parts whose features were extracted. */
  partsScored: number;
}

/**
 * A trained second- or third-order projective dependency parser: one weight vector over first-order arc,
 * sibling (and grandparent / grand-sibling) features, decoded under the arcs a mask allows. Its model
 * carries a first-order model, which labels the arcs and whose weights a top-k pass of the parser's
 * default cascade may use (each token's k best heads).
 */
export class HigherOrderParser implements DependencyParser {
  /** 2 or 3. */
  readonly order: 2 | 3;
  /** Dependency relation names (those of the first-order model's labeller). */
  readonly labels: string[];
  /** The pruning cascade stored with the model (e.g. first-order top-k), run by callers before `parse`. */
  cascade: PruningCascade;
  private readonly atoms = new AtomCache();
  private readonly quant: QuantizedWeights;
  private floats: Float32Array | null = null;
  private readonly fs = new FeatureSentence();
  private readonly scorer: HigherOrderScorer;
  private readonly second: SecondOrderDecoder | null;
  private readonly third: ThirdOrderDecoder | null;

  constructor(
    readonly config: HigherOrderConfig,
    /** Weights of every part type (length 2^bits): floats (already quantized) or their 16-bit table. */
    weights: Float32Array | QuantizedWeights,
    /** First-order model: labels, and its arc weights serve top-k pruning. */
    readonly firstOrder: Parser,
    /** Default pruning cascade (none when absent). */
    cascade: PruningCascade = new PruningCascade(),
  ) {
    // Parsing reads the 16-bit table (half the memory); floats are rebuilt only if asked for.
    this.quant = weights instanceof Float32Array ? int16Weights(weights) : weights;
    this.order = config.order;
    this.labels = firstOrder.labels;
    this.cascade = cascade;
    this.scorer = new HigherOrderScorer(this.quant.weights, this.quant.scale, config.partBits);
    this.scorer.skipForced = true;
    this.second = config.order === 2 ? new SecondOrderDecoder() : null;
    this.third = config.order === 3 ? new ThirdOrderDecoder() : null;
  }

  /**
   * Whether parsing under a mask leaves unscored the parts every allowed tree holds: each modifier's
   * only allowed head, and the parts of head sides whose children are fixed (on by default; see
   * `HigherOrderScorer.skipForced`). The same trees, up to exact ties.
   */
  get skipForced(): boolean {
    return this.scorer.skipForced;
  }

  set skipForced(on: boolean) {
    this.scorer.skipForced = on;
  }

  /**
   * Whether the decoder asks for each sibling part (arc + sib) on its first use, so that allowed parts
   * no reachable span combines are never scored (on by default), rather than for every allowed part
   * before the dynamic program. The same trees and scores either way.
   */
  get lazyParts(): boolean {
    return (this.second ?? this.third!).lazyParts;
  }

  set lazyParts(on: boolean) {
    if (this.second !== null) this.second.lazyParts = on;
    if (this.third !== null) this.third.lazyParts = on;
  }

  /** First-order arc weights of the carried first-order model. */
  get firstOrderWeights(): QuantizedWeights {
    return this.firstOrder.quantizedArcWeights;
  }

  /** Parses a sentence whose ids refer to `vocab`, using only the arcs `mask` allows (null = all arcs). */
  parse(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): HigherOrderParseResult {
    const r = this.parseUnlabelled(s, vocab, mask);
    r.labels = this.firstOrder.label(this.fs, r.heads);
    return r;
  }

  /** `parse` with `labels` left empty, for `labelTree`. */
  parseUnlabelled(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): HigherOrderParseResult {
    const x = this.atoms.prepare(s, vocab, this.fs);
    const allowed = mask ?? ArcMask.full(x.n);
    const r = this.decodePrepared(x, allowed);
    return {
      heads: r.heads,
      labels: NO_LABELS,
      fallback: r.fallback,
      arcsScored: this.scorer.arcsScored,
      arcsKept: allowed.count(),
      partsScored: this.scorer.partsScored,
    };
  }

  /** The labels of tree `heads` of sentence `s`, as `parse` assigns them (by the first-order model). */
  labelTree(s: Sentence, vocab: Vocabularies, heads: Int32Array): Int32Array {
    return this.firstOrder.label(this.atoms.prepare(s, vocab, this.fs, false), heads);
  }

  /** Maps label indices to the ids of a corpus vocabulary (interning unseen names). */
  labelIds(vocab: Vocabularies): Int32Array {
    return this.firstOrder.labelIds(vocab);
  }

  private decodePrepared(x: FeatureSentence, mask: ArcMask): HigherOrderParse {
    const scorer = this.scorer;
    scorer.prepare(x, mask);
    const r = this.decodeScored(mask);
    if (!r.fallback || scorer.arcsForced === 0) return r;
    // The fallback tree may leave a forced arc for a restored one: it needs their real scores (and
    // with the flag off, the decoders ask for every part).
    scorer.skipForced = false;
    scorer.prepare(x, mask);
    scorer.skipForced = true;
    return this.decodeScored(mask);
  }

  private decodeScored(mask: ArcMask): HigherOrderParse {
    if (this.second !== null) return this.second.decode(mask, this.scorer);
    return this.third!.decode(mask, this.scorer);
  }

  /** Weights of every part type as floats (length 2^bits), materialized on first use. */
  get weights(): Float32Array {
    if (this.floats === null) this.floats = floatWeights(this.quant);
    return this.floats;
  }

  /**
   * The model-file content: higher-order weights, the first-order model's arrays and the cascade's
   * passes under `prune/<i>/` (unless `withCascade` is false).
   */
  toModelData(withCascade = true): ModelData {
    const w = this.quant;
    const f = this.firstOrder.toModelData(false);
    const arrays: ModelData["arrays"] = { ...f.arrays, weights: w.weights };
    const meta: Record<string, unknown> = {
      ...this.config,
      featureVersion: HIGHER_ORDER_FEATURE_VERSION,
      layout: HIGHER_ORDER_LAYOUT,
      weightScale: w.scale,
      firstOrder: f.meta,
    };
    if (withCascade && !this.cascade.empty) meta.prune = this.cascade.toParts(arrays);
    return { kind: "parser", meta, arrays };
  }

  /** Writes the model file (atomically), the first-order pruning/labelling model included. */
  save(path: string): void {
    writeModelFile(path, this.toModelData());
  }

  /** Loads a model written by `save`. */
  static load(path: string): HigherOrderParser {
    return HigherOrderParser.fromModel(readModelFile(path, "parser"), path);
  }

  /** Builds a parser from a decoded order-2/3 model file (`path` is for error messages). */
  static fromModel(m: ModelData, path: string): HigherOrderParser {
    const meta = m.meta as unknown as HigherOrderConfig & {
      featureVersion: number;
      layout?: number;
      weightScale: number;
      firstOrder: Record<string, unknown>;
      prune?: unknown;
      /** Models written before the pruning layer: top-k settings of the built-in first-order pruner. */
      k?: number;
      margin?: number | null;
      rank?: PruneRank;
    };
    if (meta.order !== 2 && meta.order !== 3)
      throw new VineparseError("model-kind", `order-${meta.order} models are not supported here`, path);
    if (meta.featureVersion !== HIGHER_ORDER_FEATURE_VERSION) {
      throw new VineparseError(
        "model-version",
        `model uses higher-order feature set ${meta.featureVersion}, expected ${HIGHER_ORDER_FEATURE_VERSION}; retrain it`,
        path,
      );
    }
    const firstOrder = Parser.fromModel({ kind: "parser", meta: meta.firstOrder, arrays: m.arrays }, path);
    const config: HigherOrderConfig = { order: meta.order, bits: meta.bits };
    if (meta.partBits !== undefined) {
      if (!Number.isSafeInteger(meta.partBits) || meta.partBits < 1 || meta.partBits > meta.bits)
        throw new VineparseError(
          "model-corrupt",
          `higher-order part region of 2^${meta.partBits} weights does not fit its table of 2^${meta.bits}`,
          path,
        );
      config.partBits = meta.partBits;
    }
    const layout = meta.layout ?? 1;
    if (layout !== 1 && layout !== HIGHER_ORDER_LAYOUT)
      throw new VineparseError(
        "model-version",
        `higher-order weight layout ${layout} is not supported (expected 1 or ${HIGHER_ORDER_LAYOUT}); retrain it`,
        path,
      );
    if (
      typeof meta.weightScale !== "number" ||
      !Number.isSafeInteger(meta.bits) ||
      meta.bits < 1 ||
      meta.bits > 30
    )
      throw new VineparseError(
        "model-corrupt",
        "higher-order parser model lacks its weight scale or size",
        path,
      );
    let weights: QuantizedWeights;
    if (layout === HIGHER_ORDER_LAYOUT) {
      const table = m.arrays.weights;
      if (!(table instanceof Int16Array) || table.length !== 1 << meta.bits)
        throw new VineparseError("model-corrupt", "higher-order parser model lacks its weight table", path);
      weights = { weights: table, scale: meta.weightScale };
    } else {
      const { weightDelta, weightValue } = m.arrays;
      if (!(weightDelta instanceof Uint32Array) || !(weightValue instanceof Int16Array))
        throw new VineparseError("model-corrupt", "higher-order parser model lacks its weight arrays", path);
      try {
        weights = int16FromPacked(
          { delta: weightDelta, value: weightValue, scale: meta.weightScale },
          1 << meta.bits,
        );
      } catch (e) {
        throw new VineparseError(
          "model-corrupt",
          `higher-order parser weights: ${(e as Error).message}`,
          path,
        );
      }
    }
    const ctx = { parserWeights: firstOrder.quantizedArcWeights };
    let cascade: PruningCascade;
    if (meta.prune !== undefined) cascade = cascadeFromParts(meta.prune, m, path, ctx);
    else if (typeof meta.k === "number" && meta.k > 0) {
      // Written before the pruning layer: the top-k pruner was built in; it becomes the default cascade.
      const margin = typeof meta.margin === "number" ? meta.margin : Number.POSITIVE_INFINITY;
      const rank = meta.rank ?? "max-marginal";
      cascade = new PruningCascade([new TopKPruner(ctx.parserWeights, meta.k, margin, rank, "parser")]);
    } else cascade = new PruningCascade();
    return new HigherOrderParser(config, weights, firstOrder, cascade);
  }
}
