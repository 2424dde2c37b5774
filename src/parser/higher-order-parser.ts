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
  packWeights,
  type QuantizedWeights,
  readModelFile,
  writeModelFile,
} from "../model/model-file.js";
import { ArcMask } from "../prune/arc-mask.js";
import { HigherOrderScorer } from "./higher-order-scorer.js";
import { Parser } from "./parser.js";
import { type PruneRank, TopKPruner } from "./top-k-pruner.js";
import type { DependencyParser, ParseResult } from "./types.js";

/** Version of the sibling / grand-sibling feature templates and weight layout; other models are refused. */
export const HIGHER_ORDER_FEATURE_VERSION = 6;

/** Settings fixed when a higher-order parser is trained. */
export interface HigherOrderConfig {
  /** 2 = sibling parts (McDonald & Pereira 2006); 3 = grand-sibling parts (Koo & Collins 2010, Model 1). */
  order: 2 | 3;
  /** log2 of the weight-vector size. */
  bits: number;
  /** Heads kept per token by the first-order pruner; 0 = no pruning (only the caller's mask applies). */
  k: number;
  /** Heads scoring more than this below a token's best head are pruned too; null = no margin. */
  margin: number | null;
  /** How the pruner ranks heads: by max-marginal (default) or by arc score. */
  rank: PruneRank;
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
 * sibling (and grandparent / grand-sibling) features, decoded under the arcs a first-order model keeps
 * (each token's top-k heads). The first-order model also labels the arcs.
 */
export class HigherOrderParser implements DependencyParser {
  /** 2 or 3. */
  readonly order: 2 | 3;
  /** Dependency relation names (those of the first-order model's labeller). */
  readonly labels: string[];
  /** The first-order pruner (null when k = 0). */
  readonly pruner: TopKPruner | null;
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
    /** First-order model: prunes (top-k heads) and labels. */
    readonly firstOrder: Parser,
  ) {
    // Parsing reads the 16-bit table (half the memory); floats are rebuilt only if asked for.
    this.quant = weights instanceof Float32Array ? int16Weights(weights) : weights;
    this.order = config.order;
    this.labels = firstOrder.labels;
    this.pruner =
      config.k > 0
        ? new TopKPruner(
            firstOrder.quantizedArcWeights,
            config.k,
            config.margin ?? Number.POSITIVE_INFINITY,
            config.rank,
          )
        : null;
    this.scorer = new HigherOrderScorer(this.quant.weights, this.quant.scale);
    this.second = config.order === 2 ? new SecondOrderDecoder() : null;
    this.third = config.order === 3 ? new ThirdOrderDecoder() : null;
  }

  /** Parses a sentence whose ids refer to `vocab`; `mask` restricts the arcs (before pruning). */
  parse(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): HigherOrderParseResult {
    const x = this.atoms.prepare(s, vocab, this.fs);
    const allowed = this.restrict(x, mask);
    const r = this.decodePrepared(x, allowed);
    const labels = this.firstOrder.label(x, r.heads);
    return {
      heads: r.heads,
      labels,
      fallback: r.fallback,
      arcsScored: (this.pruner === null ? 0 : this.pruner.scorer.scored) + this.scorer.arcsScored,
      arcsKept: allowed.count(),
      partsScored: this.scorer.partsScored,
    };
  }

  /** The arcs the higher-order decoder may use for `s`: the caller's mask (or all arcs) cut to each token's top-k heads. */
  pruneMask(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): ArcMask {
    return this.restrict(this.atoms.prepare(s, vocab, this.fs), mask);
  }

  /** Maps label indices to the ids of a corpus vocabulary (interning unseen names). */
  labelIds(vocab: Vocabularies): Int32Array {
    return this.firstOrder.labelIds(vocab);
  }

  private restrict(x: FeatureSentence, mask: ArcMask | null): ArcMask {
    if (this.pruner !== null) return this.pruner.prune(x, mask);
    return mask ?? ArcMask.full(x.n);
  }

  private decodePrepared(x: FeatureSentence, mask: ArcMask): HigherOrderParse {
    this.scorer.prepare(x, mask);
    if (this.second !== null) return this.second.decode(mask, this.scorer);
    return this.third!.decode(mask, this.scorer);
  }

  /** Weights of every part type as floats (length 2^bits), materialized on first use. */
  get weights(): Float32Array {
    if (this.floats === null) this.floats = floatWeights(this.quant);
    return this.floats;
  }

  /** The model-file content: higher-order weights plus the first-order pruning/labelling model's arrays. */
  toModelData(): ModelData {
    const w = packWeights(this.weights);
    const f = this.firstOrder.toModelData();
    return {
      kind: "parser",
      meta: {
        ...this.config,
        featureVersion: HIGHER_ORDER_FEATURE_VERSION,
        weightScale: w.scale,
        firstOrder: f.meta,
      },
      arrays: { ...f.arrays, weightDelta: w.delta, weightValue: w.value },
    };
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
      weightScale: number;
      firstOrder: Record<string, unknown>;
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
    const config: HigherOrderConfig = {
      order: meta.order,
      bits: meta.bits,
      k: meta.k,
      margin: meta.margin ?? null,
      rank: meta.rank ?? "max-marginal",
    };
    const { weightDelta, weightValue } = m.arrays;
    if (!(weightDelta instanceof Uint32Array) || !(weightValue instanceof Int16Array))
      throw new VineparseError("model-corrupt", "higher-order parser model lacks its weight arrays", path);
    let weights: QuantizedWeights;
    try {
      weights = int16FromPacked(
        { delta: weightDelta, value: weightValue, scale: meta.weightScale },
        1 << meta.bits,
      );
    } catch (e) {
      throw new VineparseError("model-corrupt", `higher-order parser weights: ${(e as Error).message}`, path);
    }
    return new HigherOrderParser(config, weights, firstOrder);
  }
}
