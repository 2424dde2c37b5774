import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { VineparseError } from "../errors.js";
import { AtomCache, FeatureSentence } from "../features/feature-sentence.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { type ModelData, type QuantizedWeights, readModelFile, writeModelFile } from "../model/model-file.js";
import { type DependencyParser, NO_LABELS, type ParseResult } from "../parser/types.js";
import { PruningCascade } from "../prune/cascade.js";
import { ATOM_SLOTS, stateRows, TRANSITION_FEATURE_VERSION, TRANSITION_FEATURES } from "./features.js";
import { classCount, countDependents, oracle, oracleApplied, projectivize, SHIFT, State } from "./system.js";

/** Model-file kind of a transition-based parser. */
export const TRANSITION_KIND = "transition";
/** Version of the transition model's layout: 1 = one dense 16-bit table of 2^bits rows × classes. */
export const TRANSITION_LAYOUT = 1;
/** The transition system the model was trained for (the only one so far). */
export const TRANSITION_SYSTEM = "arc-standard";
/** Largest log2 of the number of weight rows. */
export const MAX_TRANSITION_BITS = 22;

/** Settings fixed when a transition parser is trained. */
export interface TransitionConfig {
  /** log2 of the number of rows of the weight table (each row holds one weight per class). */
  bits: number;
}

/**
 * A greedy transition-based dependency parser (arc-standard, see system.ts) whose classifier is a
 * linear model over hashed features (features.ts), trained as an averaged perceptron (train.ts).
 *
 * It implements `DependencyParser` so that `parseBlock`, `Pipeline` and the command line take it as
 * they take the graph-based parsers. What that interface assumes of arc scores is met as follows:
 * `order` is 0 (no factorization); `firstOrderWeights` is null, so nothing ranks arcs with it;
 * `cascade` is empty (the model stores none), and a mask given to `parse` is ignored, since greedy
 * decoding builds its tree without arc scores (a pruning cascade only saves arc-scoring work, which
 * this parser does not do); `skipForced` changes nothing. Labels are predicted with the arcs (labelled
 * transitions): `labelTree` returns the labels of the parse that produced `heads` (remembered per
 * result array), and for any other tree the labels its oracle derivation chooses, each arc taking the
 * best-scoring label of its transition's direction.
 */
export class TransitionParser implements DependencyParser {
  /** A transition parser has no factorization order. */
  readonly order = 0;
  /** Arc weights ranking heads: none. */
  readonly firstOrderWeights = null;
  /** Always empty: the parser builds its trees without arc scores, so pruning would not help it. */
  cascade: PruningCascade = new PruningCascade();
  /** No effect (nothing is scored per arc). */
  skipForced = true;
  /** Number of transition classes: 1 + 2 × labels. */
  readonly classes: number;
  private readonly atomCache = new AtomCache();
  private readonly fs = new FeatureSentence();
  private readonly st = new State();
  private readonly atoms = new Int32Array(ATOM_SLOTS);
  private readonly rows = new Int32Array(TRANSITION_FEATURES);
  private readonly scores: Int32Array;
  /** Labels of the trees this parser produced, by their heads array (for `labelTree`). */
  private readonly labelled = new WeakMap<Int32Array, Int32Array>();

  constructor(
    readonly config: TransitionConfig,
    /** 16-bit weights, 2^bits rows × classes, row-major (used as is, not copied), and their scale. */
    readonly weights: QuantizedWeights,
    /** Dependency relation names; label l is class 1 + l (left) and 1 + L + l (right). */
    readonly labels: string[],
  ) {
    this.classes = classCount(labels.length);
    const size = (1 << config.bits) * this.classes;
    if (weights.weights.length !== size)
      throw new RangeError(
        `weights have ${weights.weights.length} entries, not 2^${config.bits} × ${this.classes}`,
      );
    this.scores = new Int32Array(this.classes);
  }

  /** Parses a sentence, greedily; the mask is ignored (see the class comment). */
  parse(s: Sentence, vocab: Vocabularies, mask: ArcMask | null = null): ParseResult {
    const r = this.parseUnlabelled(s, vocab, mask);
    r.labels = this.labelled.get(r.heads)!;
    return r;
  }

  /**
   * `parse` with `labels` left empty: the labels the transitions chose are kept for `labelTree`,
   * which returns them for this result's `heads`.
   */
  parseUnlabelled(s: Sentence, vocab: Vocabularies, _mask: ArcMask | null = null): ParseResult {
    const x = this.atomCache.prepare(s, vocab, this.fs, false);
    const n = x.n;
    const st = this.st.init(n, this.labels.length);
    const L = this.labels.length;
    const C = this.classes;
    const sc = this.scores;
    while (!st.done) {
      // With the stack at [root] or [root, s0] and words left, SHIFT is the only legal transition.
      if (st.sp <= 2 && st.b <= n) {
        st.apply(SHIFT);
        continue;
      }
      this.score(x, st);
      let best = -1;
      let bestScore = 0;
      if (st.canShift()) {
        best = SHIFT;
        bestScore = sc[SHIFT]!;
      }
      if (st.canLeft()) {
        for (let c = 1; c <= L; c++) {
          if (best < 0 || sc[c]! > bestScore) {
            best = c;
            bestScore = sc[c]!;
          }
        }
      }
      if (st.canRight()) {
        for (let c = L + 1; c < C; c++) {
          if (best < 0 || sc[c]! > bestScore) {
            best = c;
            bestScore = sc[c]!;
          }
        }
      }
      st.apply(best);
    }
    const heads = st.heads.slice(0, n + 1);
    heads[0] = -1;
    const labels = st.rel.slice(0, n + 1);
    labels[0] = 0;
    this.labelled.set(heads, labels);
    return { heads, labels: NO_LABELS, fallback: false, arcsScored: 0 };
  }

  /**
   * The labels of tree `heads`: those of the parse that returned this very array, else the labels
   * chosen along the oracle derivation of the tree (projectivized first if need be; each arc takes
   * the best-scoring label of the direction the oracle picks).
   */
  labelTree(s: Sentence, vocab: Vocabularies, heads: Int32Array): Int32Array {
    const known = this.labelled.get(heads);
    if (known !== undefined) return known;
    const x = this.atomCache.prepare(s, vocab, this.fs, false);
    const n = x.n;
    const L = this.labels.length;
    const gold = heads.slice(0, n + 1);
    projectivize(gold, n);
    const zero = new Int32Array(n + 1);
    const pending = new Int32Array(n + 1);
    countDependents(gold, n, pending);
    const st = this.st.init(n, L);
    const sc = this.scores;
    const out = new Int32Array(n + 1);
    while (!st.done) {
      let c = oracle(st, gold, zero, pending);
      if (c !== SHIFT) {
        this.score(x, st);
        const base = c <= L ? 1 : 1 + L;
        c = base;
        for (let l = 1; l < L; l++) if (sc[base + l]! > sc[c]!) c = base + l;
      }
      st.apply(c);
      oracleApplied(st, c, pending);
    }
    // Each token is attached once; tokens the projectivized tree moved keep the label found for them.
    for (let m = 1; m <= n; m++) out[m] = Math.max(0, st.rel[m]!);
    return out;
  }

  /** Class scores of configuration `st` into `this.scores` (sums of 16-bit weights). */
  private score(x: FeatureSentence, st: State): void {
    const C = this.classes;
    const rows = this.rows;
    const sc = this.scores;
    const w = this.weights.weights;
    stateRows(x, st, this.atoms, rows, this.config.bits, C);
    // Kept apart from the trainer's loop (float weights, float scores): one function for both types
    // turns polymorphic, and a process that trains and then parses parsed 1.5× slower.
    // The first row initializes the scores, the others add to them.
    let base = rows[0]!;
    for (let c = 0; c < C; c++) sc[c] = w[base + c]!;
    for (let t = 1; t < rows.length; t++) {
      base = rows[t]!;
      let c = 0;
      for (; c + 4 <= C; c += 4) {
        sc[c] += w[base + c]!;
        sc[c + 1] += w[base + c + 1]!;
        sc[c + 2] += w[base + c + 2]!;
        sc[c + 3] += w[base + c + 3]!;
      }
      for (; c < C; c++) sc[c] += w[base + c]!;
    }
  }

  /** The model-file content (kind "transition"): the 16-bit weight table and its scale. */
  toModelData(): ModelData {
    return {
      kind: TRANSITION_KIND,
      meta: {
        system: TRANSITION_SYSTEM,
        layout: TRANSITION_LAYOUT,
        featureVersion: TRANSITION_FEATURE_VERSION,
        bits: this.config.bits,
        labels: this.labels,
        scale: this.weights.scale,
      },
      arrays: { weights: this.weights.weights },
    };
  }

  /** Writes the model file (atomically). */
  save(path: string): void {
    writeModelFile(path, this.toModelData());
  }

  /** Loads a model written by `save`. */
  static load(path: string): TransitionParser {
    return TransitionParser.fromModel(readModelFile(path, TRANSITION_KIND), path);
  }

  /** Builds a parser from decoded model content (`path` is for error messages). */
  static fromModel(m: ModelData, path: string): TransitionParser {
    const meta = m.meta as {
      system?: unknown;
      layout?: unknown;
      featureVersion?: unknown;
      bits?: unknown;
      labels?: unknown;
      scale?: unknown;
    };
    if (meta.layout !== TRANSITION_LAYOUT)
      throw new VineparseError(
        "model-version",
        `transition model layout ${String(meta.layout)} is not supported (expected ${TRANSITION_LAYOUT}); retrain it`,
        path,
      );
    if (meta.system !== TRANSITION_SYSTEM)
      throw new VineparseError(
        "model-version",
        `transition system ${String(meta.system)} is not supported (expected ${TRANSITION_SYSTEM})`,
        path,
      );
    if (meta.featureVersion !== TRANSITION_FEATURE_VERSION)
      throw new VineparseError(
        "model-version",
        `model uses transition feature set ${String(meta.featureVersion)}, expected ${TRANSITION_FEATURE_VERSION}`,
        path,
      );
    const bits = meta.bits;
    if (
      typeof bits !== "number" ||
      !Number.isInteger(bits) ||
      bits < 1 ||
      bits > MAX_TRANSITION_BITS ||
      typeof meta.scale !== "number" ||
      !Number.isFinite(meta.scale) ||
      !Array.isArray(meta.labels) ||
      meta.labels.length === 0 ||
      !meta.labels.every((l) => typeof l === "string")
    )
      throw new VineparseError("model-corrupt", "transition model lacks its bits, scale or labels", path);
    const w = m.arrays.weights;
    if (!(w instanceof Int16Array))
      throw new VineparseError("model-corrupt", "transition model lacks its weight table", path);
    try {
      return new TransitionParser({ bits }, { weights: w, scale: meta.scale }, meta.labels as string[]);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new VineparseError("model-corrupt", `transition weights: ${e.message}`, path);
    }
  }
}
