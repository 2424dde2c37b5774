import { VineparseError } from "../errors.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData } from "../model/model-file.js";
import { int16TableFromModel } from "./pass-weights.js";
import type { ArcPruner, PruneInput } from "./pruner.js";
import { TagMap, type TagColumn } from "./tag-map.js";
import { applyRoles, decideRoles, NUM_ROLES, ROLE_NAMES, ROLE_PAPER_NAMES } from "./token-role-decisions.js";
import { MAX_TOKEN_FEATURES, TokenRoleFeatures } from "./token-role-features.js";
import { tokenScoreKernel, type TokenScoreKernel } from "./token-score-kernel.js";

/** Model-file kind of the linear token-role filter. */
export const LINEAR_KIND = "linear";
/** Version of its layout (2: the weight table as scored; 1: non-zero weights delta-coded). */
export const LINEAR_VERSION = 2;

/** What training recorded about one decision (for `filter show`; not needed to prune). */
export interface RoleDecisionInfo {
  /** Costs of the non-arc and true-arc classes of the SVM chosen for this decision. */
  c1?: number;
  c2?: number;
  /** Precision and recall (%) of the decision on dev at its operating point (active tokens only). */
  precision?: number;
  recall?: number;
  /** The most important features: name and weight, strongest for the decision first. */
  top?: [string, number][];
}

/**
 * The linear-time token-role filter of Bergsma & Cherry (2010, §4.3): one shared hashed feature vector
 * per token (Table 2) and eight weight vectors, one per decision (`ROLE_NAMES`); a decision fires when
 * its score exceeds its threshold (+∞ = decision off), and the arcs it rules out are removed in
 * O(n + removed arcs). Weights are 16-bit integers interleaved by feature (the eight weights of one
 * feature are adjacent: one cache line per feature), with one scale per decision. Not reentrant.
 */
export class TokenRoleFilter implements ArcPruner {
  /** Always "linear". */
  readonly kind = LINEAR_KIND;
  /** The feature extractor (it holds the last sentence prepared). */
  readonly features: TokenRoleFeatures;
  private scores = new Float64Array(0);
  private positive = new Uint8Array(0);
  /** Sums a token's weights (WebAssembly SIMD where available); it holds the weight table. */
  private readonly kernel: TokenScoreKernel;
  /** weights[f * 8 + d]: weight of feature slot f for decision d, in units of `scales[d]` (the kernel's table). */
  readonly weights: Int16Array;

  constructor(
    /** The filter's tag map (the tags it was trained on). */
    readonly tagMap: TagMap,
    /** log2 of the number of hashed feature slots. */
    readonly bits: number,
    /** weights[f * 8 + d]: weight of feature slot f for decision d (copied into the scoring kernel). */
    weights: Int16Array,
    /** Per decision, the factor turning integer sums into scores. */
    readonly scales: Float64Array,
    /** Per decision, the score a token must exceed for the decision to fire (+∞: off). */
    readonly thresholds: Float64Array,
    /** Whether a detected root also removes the arcs crossing it (projective parsing). */
    readonly crossRoot = true,
    /** Training records per decision (costs, dev precision/recall, top features). */
    readonly info: readonly RoleDecisionInfo[] = [],
    /** "js" forces the plain JavaScript scoring loop (the results are identical). */
    kernel: "auto" | "js" = "auto",
  ) {
    if (weights.length !== NUM_ROLES << bits)
      throw new RangeError(`TokenRoleFilter: ${weights.length} weights for 2^${bits} slots × 8 decisions`);
    if (scales.length !== NUM_ROLES || thresholds.length !== NUM_ROLES)
      throw new RangeError("TokenRoleFilter: one scale and one threshold per decision");
    this.features = new TokenRoleFeatures(tagMap, bits);
    this.kernel = tokenScoreKernel(weights, MAX_TOKEN_FEATURES, kernel);
    this.weights = this.kernel.weights;
  }

  /** Which scoring loop runs: "wasm-simd" or "js". */
  get kernelKind(): string {
    return this.kernel.kind;
  }

  /** The same weights with other thresholds (e.g. a decision switched off). */
  withThresholds(thresholds: ArrayLike<number>): TokenRoleFilter {
    return new TokenRoleFilter(
      this.tagMap,
      this.bits,
      this.weights,
      this.scales,
      Float64Array.from(thresholds),
      this.crossRoot,
      this.info,
      this.kernel.kind === "js" ? "js" : "auto",
    );
  }

  /**
   * Scores every token of `input`'s sentence for every decision: the result holds score(i, d) at
   * [i * 8 + d] for i = 1..n (a buffer reused by the next call).
   */
  scoreAll(input: PruneInput): Float64Array {
    const n = input.sentence.n;
    const need = (n + 1) * NUM_ROLES;
    if (this.scores.length < need) {
      this.scores = new Float64Array(Math.max(need, this.scores.length * 2, 512));
      this.positive = new Uint8Array(this.scores.length);
    }
    const fx = this.features;
    fx.prepare(input);
    const kernel = this.kernel;
    const slots = kernel.slots;
    const sums = kernel.sums;
    const sc = this.scores;
    const q = this.scales;
    for (let i = 1; i <= n; i++) {
      kernel.sum(fx.extract(i, slots));
      const o = i * NUM_ROLES;
      sc[o] = sums[0]! * q[0]!;
      sc[o + 1] = sums[1]! * q[1]!;
      sc[o + 2] = sums[2]! * q[2]!;
      sc[o + 3] = sums[3]! * q[3]!;
      sc[o + 4] = sums[4]! * q[4]!;
      sc[o + 5] = sums[5]! * q[5]!;
      sc[o + 6] = sums[6]! * q[6]!;
      sc[o + 7] = sums[7]! * q[7]!;
    }
    return sc;
  }

  /** Removes the arcs ruled out by the decisions that fire on `input`'s tokens, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    const sc = this.scoreAll(input);
    const root = decideRoles(sc, this.thresholds, mask, this.positive);
    applyRoles(mask, this.positive, root, this.crossRoot);
  }

  /**
   * The filter as model-file content: the interleaved 16-bit weight table as it scores with (inflated
   * in place when loaded; version 1 stored the non-zero entries delta-coded).
   */
  toModelData(): ModelData {
    const decisions = ROLE_NAMES.map((name, d) => ({
      name,
      threshold: Number.isFinite(this.thresholds[d]!) ? this.thresholds[d]! : null,
      scale: this.scales[d]!,
      ...(this.info[d] ?? {}),
    }));
    return {
      kind: LINEAR_KIND,
      meta: {
        version: LINEAR_VERSION,
        bits: this.bits,
        column: this.tagMap.column,
        tags: this.tagMap.tags,
        crossRoot: this.crossRoot,
        decisions,
      },
      arrays: { weights: this.weights },
    };
  }

  /** Operating point of every decision and its most important features. */
  describe(): string {
    const lines = [
      `token-role filter (Bergsma & Cherry 2010, §4.3): 2^${this.bits} hashed feature slots × 8 decisions, ` +
        `${this.tagMap.column.toUpperCase()} tags (${this.tagMap.tags.length})${this.crossRoot ? ", no arc crosses a detected root" : ""}`,
    ];
    for (let d = 0; d < NUM_ROLES; d++) {
      const t = this.thresholds[d]!;
      const inf = this.info[d] ?? {};
      const cost = inf.c1 !== undefined ? `, C1 ${inf.c1} C2 ${inf.c2}` : "";
      const pr = inf.precision !== undefined ? `, dev precision ${inf.precision}% recall ${inf.recall}%` : "";
      lines.push(
        `${ROLE_NAMES[d]} (${ROLE_PAPER_NAMES[d]}): ${Number.isFinite(t) ? `fires when score > ${t.toPrecision(4)}` : "off"}${cost}${pr}`,
      );
      if (inf.top !== undefined && inf.top.length > 0)
        for (const [name, weight] of inf.top) lines.push(`    ${weight.toFixed(3).padStart(8)}  ${name}`);
    }
    return lines.join("\n") + "\n";
  }

  /** Loads a filter written by `toModelData`, with one clear error for a malformed file. */
  static fromModelData(m: ModelData, file: string): TokenRoleFilter {
    const meta = m.meta as {
      version?: number;
      bits?: number;
      column?: string;
      tags?: unknown;
      crossRoot?: boolean;
      decisions?: unknown;
    };
    if (meta.version !== LINEAR_VERSION && meta.version !== 1)
      throw new VineparseError(
        "model-version",
        `linear filter version ${meta.version} is not supported`,
        file,
      );
    const bad = (what: string) =>
      new VineparseError("model-corrupt", `corrupted model: linear filter ${what}`, file);
    const bits = meta.bits;
    if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 4 || bits > 26)
      throw bad("has a bad weight-table size");
    if (meta.column !== "upos" && meta.column !== "xpos") throw bad("has a bad tag column");
    if (!Array.isArray(meta.tags) || !meta.tags.every((t) => typeof t === "string"))
      throw bad("has a bad tag list");
    const decisions = meta.decisions as
      ({ name?: unknown; threshold?: unknown; scale?: unknown } & RoleDecisionInfo)[] | undefined;
    if (!Array.isArray(decisions) || decisions.length !== NUM_ROLES) throw bad("lacks its decisions");
    const scales = new Float64Array(NUM_ROLES);
    const thresholds = new Float64Array(NUM_ROLES);
    const info: RoleDecisionInfo[] = [];
    decisions.forEach((dec, d) => {
      if (dec.name !== ROLE_NAMES[d] || typeof dec.scale !== "number")
        throw bad(`decision ${d + 1} is malformed`);
      if (dec.threshold !== null && typeof dec.threshold !== "number")
        throw bad(`decision ${dec.name} has a bad threshold`);
      scales[d] = dec.scale;
      thresholds[d] = dec.threshold === null ? Number.POSITIVE_INFINITY : dec.threshold;
      const { c1, c2, precision, recall, top } = dec;
      info.push({ c1, c2, precision, recall, top });
    });
    const weights = int16TableFromModel(m.arrays, NUM_ROLES << bits, meta.version === LINEAR_VERSION, bad);
    const tagMap = new TagMap(meta.tags as string[], meta.column as TagColumn);
    return new TokenRoleFilter(tagMap, bits, weights, scales, thresholds, meta.crossRoot !== false, info);
  }
}
