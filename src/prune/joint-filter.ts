import { VineparseError } from "../errors.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelArray, ModelData } from "../model/model-file.js";
import { nestModel, unnestModel } from "../model/nest.js";
import {
  arcFeatureCount,
  JointEventScorer,
  LEN_BUCKETS,
  LEX_BITS,
  LexAtoms,
  LEN_CLASSES,
  SPAN_FLAGS,
  SPAN_SIGS,
  SpanFlagTable,
  spanLengthFeature,
} from "./joint-events.js";
import type { ArcPruner, PruneInput } from "./pruner.js";
import { LINEAR_KIND, TokenRoleFilter } from "./token-role-filter.js";

/** Model-file kind of the jointly trained filter. */
export const JOINT_KIND = "joint";
/** Version of its layout. */
export const JOINT_VERSION = 1;

/** What training recorded (for `filter show`; not needed to prune). */
export interface JointTrainInfo {
  /** Costs of arcs to filter (C1) and to keep (C0). */
  c1?: number;
  c0?: number;
  /** Latent-SVM alternations made, and the one kept (chosen on dev). */
  alternations?: number;
  chosen?: number;
  /** Dev coverage and reduction (%) at the operating point, and its coverage target. */
  coverage?: number;
  reduction?: number;
  target?: number;
  /** Per alternation: dev coverage / reduction at the target. */
  curve?: [number, number][];
  /** How the token-role subclassifiers were initialised. */
  init?: string;
  /** Training examples (constraints) per alternation and training seconds. */
  examples?: number;
  seconds?: number;
}

/**
 * The jointly trained arc filter of Bergsma & Cherry (2011): the eight token-role subclassifiers of
 * the 2010 linear filter (scored once per token by `TokenRoleFilter.scoreAll`, O(n)), an arc-level
 * Vine event and the rejection event None with features [HeadTag ModTag Dir] and Len (and, with
 * `pairLength`, their conjunction over length classes; with `span`, what lies between head and
 * modifier, see `SPAN_SIGS`; with `lexical`, two hashed word features, see `lexSlot`). Arc h→m is
 * removed iff its best event (see `joint-events.ts`) scores above score(None_{h→m}) + `bias`: one
 * comparison per arc, no allocation. Not reentrant.
 */
export class JointFilter implements ArcPruner {
  /** Always "joint". */
  readonly kind = JOINT_KIND;
  private readonly scorer: JointEventScorer;
  private flags: Uint8Array = new Uint8Array(64);
  private readonly flagTable = new SpanFlagTable();
  private readonly atoms = new LexAtoms();

  constructor(
    /** The token-role subclassifiers (their thresholds are unused; their tag map also indexes arc features). */
    readonly roles: TokenRoleFilter,
    /** Vine weights per arc feature (`arcFeatureCount(S, pairLength, span)`), null without a Vine event. */
    readonly vine: Float32Array | null,
    /** None weights per arc feature, null for a constant None (score 0). */
    readonly none: Float32Array | null,
    /** The operating point: an arc goes when its best event beats None by more than this. */
    readonly bias: number,
    /** Training records. */
    readonly info: JointTrainInfo = {},
    /** Whether Vine and None have the [HeadTag ModTag Dir LenClass] features (filters trained before them do not). */
    readonly pairLength = true,
    /** Whether they have the span-signature features (`SPAN_SIGS`; filters trained before them do not). */
    readonly span = pairLength,
    /** Whether they have the lexical features ([HeadTag ModWord Dir], [HeadWord ModTag Dir]; `lexSlot`). */
    readonly lexical = false,
  ) {
    const S = roles.tagMap.size;
    const A = arcFeatureCount(S, pairLength, span, lexical);
    if ((vine !== null && vine.length !== A) || (none !== null && none.length !== A))
      throw new RangeError(`JointFilter: Vine / None need ${A} arc weights`);
    // The scorer reads every arc feature; those a filter lacks weigh 0.
    const full = (w: Float32Array | null) => {
      if (w === null) return null;
      const f = new Float64Array(arcFeatureCount(S));
      f.set(w);
      return f;
    };
    this.scorer = new JointEventScorer(S, roles.crossRoot, full(vine), full(none));
  }

  /** The same subclassifiers at another operating point. */
  withBias(bias: number, info: JointTrainInfo = this.info): JointFilter {
    return new JointFilter(
      this.roles,
      this.vine,
      this.none,
      bias,
      info,
      this.pairLength,
      this.span,
      this.lexical,
    );
  }

  /** Whether the filter has a Vine event / a learned None. */
  get hasVine(): boolean {
    return this.vine !== null;
  }
  get hasNone(): boolean {
    return this.none !== null;
  }

  /** The span flags of `input`'s tokens (a buffer reused by the next call). */
  private spanFlagsOf(input: PruneInput): Uint8Array {
    const s = input.sentence;
    if (this.flags.length < s.n + 1) this.flags = new Uint8Array(Math.max(s.n + 1, 2 * this.flags.length));
    return this.flagTable.fill(s.upos, s.n, input.vocab.upos, this.flags);
  }

  /** The word atoms of `input`'s tokens for the lexical features (null without them). */
  private wordsOf(input: PruneInput): Int32Array | null {
    return this.lexical ? this.atoms.fill(input.sentence, input.vocab.form) : null;
  }

  /** Removes every arc whose best event beats its None event by more than the bias, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    const sc = this.roles.scoreAll(input);
    const ev = this.scorer;
    ev.prepare(sc, this.roles.features.tag, this.spanFlagsOf(input), mask, this.wordsOf(input));
    const n = mask.n;
    const bits = mask.bits;
    const bias = this.bias;
    // Root row: scanned in full (its Root events differ); the same arithmetic as `margins`
    // (operating points sit exactly on a margin).
    ev.scanRow(0, mask);
    for (let m = 1; m <= n; m++) if (ev.best[m]! - ev.none[m]! > bias) bits[m] = 0;
    for (let h = 1; h <= n; h++) {
      ev.pruneSide(h, mask, bias, -1);
      ev.pruneSide(h, mask, bias, 1);
    }
  }

  /**
   * Margins of the arcs `mask` allows: out[h * (n+1) + m] = best event score − score(None) (the arc
   * goes iff its margin exceeds the bias); −∞ for the others. `out` must hold (n+1)² entries.
   */
  margins(input: PruneInput, mask: ArcMask, out: Float64Array): void {
    const sc = this.roles.scoreAll(input);
    const ev = this.scorer;
    ev.prepare(sc, this.roles.features.tag, this.spanFlagsOf(input), mask, this.wordsOf(input));
    const n = mask.n;
    const size = mask.size;
    for (let h = 0; h <= n; h++) {
      ev.scanRow(h, mask);
      const row = h * size;
      out[row] = Number.NEGATIVE_INFINITY;
      for (let m = 1; m <= n; m++) out[row + m] = ev.best[m]! - ev.none[m]!;
    }
  }

  /** The filter as model-file content: the token roles nested under roles/, Vine and None weights. */
  toModelData(): ModelData {
    const arrays: Record<string, ModelArray> = {};
    const roles = nestModel("roles", this.roles.toModelData(), arrays);
    if (this.vine !== null) arrays.vine = this.vine;
    if (this.none !== null) arrays.none = this.none;
    return {
      kind: JOINT_KIND,
      meta: {
        version: JOINT_VERSION,
        roles,
        vine: this.vine !== null,
        none: this.none !== null,
        bias: this.bias,
        lenBuckets: LEN_BUCKETS,
        ...(this.pairLength ? { lenClasses: LEN_CLASSES } : {}),
        ...(this.span ? { spanSigs: SPAN_SIGS } : {}),
        ...(this.lexical ? { lexBits: LEX_BITS } : {}),
        info: this.info,
      },
      arrays,
    };
  }

  /** The operating point, the training record, the subclassifiers and the strongest Vine/None features. */
  describe(): string {
    const i = this.info;
    const tm = this.roles.tagMap;
    const lines = [
      `joint filter (Bergsma & Cherry 2011): 8 token-role subclassifiers${this.hasVine ? " + Vine" : ""}${this.hasNone ? " + None (dynamic threshold)" : ""}` +
        `${this.lexical ? ", with lexical arc features" : ""}, ` +
        `an arc goes when its best event beats None by more than ${this.bias.toPrecision(4)}`,
    ];
    if (i.c1 !== undefined)
      lines.push(
        `trained: latent SVM, C1 ${i.c1} (filter) C0 ${i.c0} (keep), ${i.alternations} alternations, kept #${i.chosen}` +
          (i.init !== undefined ? `, roles initialised from ${i.init}` : "") +
          (i.seconds !== undefined ? `, ${i.seconds} s` : ""),
      );
    if (i.coverage !== undefined)
      lines.push(`dev: coverage ${i.coverage}%, reduction ${i.reduction}% (target ${i.target}%)`);
    if (i.curve !== undefined)
      lines.push(
        `dev per alternation (coverage/reduction): ${i.curve.map(([c, r]) => `${c}/${r}`).join(" ")}`,
      );
    const S = tm.size;
    const tagName = (t: number) => (t === 0 ? "<root>" : t === tm.unknown ? "<unk>" : tm.tags[t - 1]!);
    const pairs = (w: Float32Array, sign: number, count: number) => {
      const list: [string, number][] = [];
      for (let a = 0; a < S; a++)
        for (let b = 1; b < S; b++)
          for (let d = 0; d < 2; d++) {
            const v = w[((a * S + b) << 1) | d]!;
            if (v !== 0) list.push([`${tagName(a)} ${d === 0 ? "→" : "←"} ${tagName(b)}`, v]);
          }
      list.sort((x, y) => sign * (y[1] - x[1]));
      return list.slice(0, count).map(([name, v]) => `    ${v.toFixed(3).padStart(8)}  ${name}`);
    };
    const lens = (w: Float32Array) => {
      const H = 2 * S * S;
      const out: string[] = [];
      for (let l = 1; l <= LEN_BUCKETS; l++)
        out.push(`${l}${l === LEN_BUCKETS ? "+" : ""}:${w[H + l - 1]!.toFixed(2)}`);
      return `    ${out.join(" ")}`;
    };
    // [SpanSig Dir LenClass] weights: a heading, then one line per signature and direction.
    const spans = (w: Float32Array) => {
      if (!this.span) return [];
      const out = ["  by what lies between (length classes 1, 2, 3-4, 5-7, 8-12, 13-20, 21+):"];
      for (let sig = 0; sig < SPAN_SIGS; sig++)
        for (let d = 0; d < 2; d++) {
          const names = Object.entries(SPAN_FLAGS)
            .filter(([, bit]) => (sig & bit) !== 0)
            .map(([t]) => t);
          const at = spanLengthFeature(S, sig, d, 1);
          const row = Array.from({ length: LEN_CLASSES }, (_, c) => w[at + c]!.toFixed(2));
          out.push(
            `    ${d === 0 ? "→" : "←"} ${names.length > 0 ? names.join("/") : "nothing"} between: ${row.join(" ")}`,
          );
        }
      return out;
    };
    if (this.none !== null) {
      lines.push("None (a higher score protects the arc): Len", lens(this.none));
      lines.push("  most protected head→modifier tag pairs:", ...pairs(this.none, 1, 8));
      lines.push(...spans(this.none));
    }
    if (this.vine !== null) {
      lines.push("Vine: Len", lens(this.vine));
      lines.push("  tag pairs the Vine event most wants to filter:", ...pairs(this.vine, 1, 8));
      lines.push(...spans(this.vine));
    }
    lines.push(this.roles.describe().trimEnd());
    return lines.join("\n") + "\n";
  }

  /** Loads a filter written by `toModelData`, with one clear error for a malformed file. */
  static fromModelData(m: ModelData, file: string): JointFilter {
    const meta = m.meta as {
      version?: number;
      roles?: unknown;
      vine?: unknown;
      none?: unknown;
      bias?: unknown;
      lenBuckets?: unknown;
      lenClasses?: unknown;
      spanSigs?: unknown;
      lexBits?: unknown;
      info?: unknown;
    };
    if (meta.version !== JOINT_VERSION)
      throw new VineparseError(
        "model-version",
        `joint filter version ${meta.version} is not supported`,
        file,
      );
    const bad = (what: string) =>
      new VineparseError("model-corrupt", `corrupted model: joint filter ${what}`, file);
    if (meta.lenBuckets !== LEN_BUCKETS) throw bad("has a bad length-feature count");
    if (meta.lenClasses !== undefined && meta.lenClasses !== LEN_CLASSES)
      throw bad("has a bad length-class count");
    const pairLength = meta.lenClasses !== undefined;
    if (meta.spanSigs !== undefined && (meta.spanSigs !== SPAN_SIGS || !pairLength))
      throw bad("has a bad span-signature count");
    const span = meta.spanSigs !== undefined;
    if (meta.lexBits !== undefined && (meta.lexBits !== LEX_BITS || !span))
      throw bad("has a bad lexical-feature size");
    const lexical = meta.lexBits !== undefined;
    if (typeof meta.bias !== "number" || !Number.isFinite(meta.bias)) throw bad("has a bad operating point");
    const part = unnestModel("roles", m, meta.roles, file, "joint filter token roles");
    if (part.kind !== LINEAR_KIND) throw bad("lacks its token-role subclassifiers");
    const roles = TokenRoleFilter.fromModelData(part, file);
    const A = arcFeatureCount(roles.tagMap.size, pairLength, span, lexical);
    const arc = (name: string, present: unknown): Float32Array | null => {
      if (present !== true) return null;
      const a = m.arrays[name];
      if (!(a instanceof Float32Array) || a.length !== A) throw bad(`has bad ${name} weights`);
      return a;
    };
    const info = meta.info !== null && typeof meta.info === "object" ? (meta.info as JointTrainInfo) : {};
    return new JointFilter(
      roles,
      arc("vine", meta.vine),
      arc("none", meta.none),
      meta.bias,
      info,
      pairLength,
      span,
      lexical,
    );
  }
}
