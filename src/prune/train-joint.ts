import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { round } from "../eval/percent.js";
import {
  type DifferenceProblem,
  differencePrimalObjective,
  trainDifferenceSvm,
} from "../learn/difference-svm.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { PruningCascade } from "./cascade.js";
import { cascadeMasks, maskTotals } from "./cascade-masks.js";
import {
  arcFeatureCount,
  EVENT_VINE,
  JointEventScorer,
  LEN_BUCKETS,
  LexAtoms,
  lexSlot,
  pairLengthFeature,
  SPAN_SIGS,
  spanFeature,
  SpanFlagTable,
  spanLengthFeature,
} from "./joint-events.js";
import { JointFilter, type JointTrainInfo } from "./joint-filter.js";
import { SparseRowsBuilder } from "./sparse-rows.js";
import { TagMap, type TagColumn } from "./tag-map.js";
import { NUM_ROLES, ROLE, roleHi, roleLo } from "./token-role-decisions.js";
import { MAX_TOKEN_FEATURES, TokenRoleFeatures } from "./token-role-features.js";
import { TokenRoleFilter } from "./token-role-filter.js";

/** Options of `trainJointFilter`. */
export interface JointTrainOptions {
  /**
   * Independently trained token-role filter (B&C 2010) whose subclassifiers give the first latent
   * assignment (score − threshold; decisions that are off: score − `offShift`); its tag map and
   * feature size are reused. Without it, every event starts at 0.
   */
  init?: TokenRoleFilter | null;
  /** What `init` is, for the model's record (e.g. a file name). */
  initName?: string;
  /** Tag column without `init` (default "auto"). */
  tags?: TagColumn | "auto";
  /** log2 of the hashed token feature slots without `init` (default 18). */
  bits?: number;
  /** Cost of an arc to filter (C1, default 0.0001) and of an arc to keep (C0, default 0.01), per constraint (chosen on en_ewt dev). */
  c1?: number;
  c0?: number;
  /** Whether the model has the Vine event / a learned None (default both). */
  vine?: boolean;
  none?: boolean;
  /** Whether Vine and None also have the [HeadTag ModTag Dir LenClass] features (default true). */
  pairLength?: boolean;
  /** Whether they also have the span-signature features (`SPAN_SIGS`; default `pairLength`, which they need). */
  span?: boolean;
  /**
   * Whether they also have the lexical features [HeadTag ModWord Dir] and [HeadWord ModTag Dir]
   * (`lexSlot`; default false; they need `span`). Every arc then has its own feature row.
   */
  lexical?: boolean;
  /** Latent-SVM alternations (assign, train); the best on dev is kept (default 4). */
  alternations?: number;
  /** Dev coverage target (%) of prefix + filter: the operating point (default 99.7). */
  coverage?: number;
  /** Whether Root events filter the arcs crossing their token (default true, as the linear filter). */
  crossRoot?: boolean;
  /** Passes before this one: training and tuning use the arcs they leave (default none). */
  prefix?: PruningCascade;
  /**
   * Share of the arcs to filter kept as training examples (a uniform sample, fixed over the
   * alternations; each kept one's cost is divided by the share). Default 1.
   */
  sample?: number;
  /** Solver tolerance and pass limit (defaults 0.1 and 200). */
  eps?: number;
  maxIter?: number;
  /**
   * Whether the Vine event (weights 0 before any training) competes in the first assignment (default
   * false: a zero Vine score beats every init event scored below its threshold, so most arcs would
   * start on the untrained Vine event; it competes from the second alternation on).
   */
  firstVine?: boolean;
  /** Shift of the init scores of decisions the init filter has switched off (default 10). */
  offShift?: number;
  /** Progress output. */
  log?: (line: string) => void;
}

/** One alternation: training examples, solver passes, objective, and the filter's dev numbers at the target. */
export interface JointAlternation {
  examples: number;
  passes: number;
  objective: number;
  /** Arcs to filter whose assigned event changed from the previous alternation. */
  changed: number;
  coverage: number;
  reduction: number;
  bias: number;
  seconds: number;
}

/** What `trainJointFilter` returns. */
export interface JointTrainResult {
  /** The filter of the best alternation on dev, at the coverage target. */
  filter: JointFilter;
  /** Per alternation. */
  alternations: JointAlternation[];
  /** 1-based index of the alternation kept. */
  chosen: number;
  /** Dev coverage/reduction (%) of prefix + filter. */
  coverage: number;
  reduction: number;
  /** Seconds of the whole training. */
  seconds: number;
}

/** Dev arcs the prefix leaves, with the filter's margins, for choosing the operating point. */
export interface DevMargins {
  /** Margins of the gold arcs the prefix keeps. */
  gold: Float64Array;
  /** Margins of every arc the prefix keeps. */
  all: Float64Array;
  /** n² summed over the sentences, gold arcs in all, gold arcs the prefix removed. */
  arcs: number;
  goldTotal: number;
  prefixRemoved: number;
  prefixGoldLost: number;
}

/** The margins of a joint filter's arcs on dev (after `prefix`). */
export function devMargins(
  f: JointFilter,
  dev: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade,
  masks: readonly ArcMask[] = cascadeMasks(prefix, dev, vocab),
): DevMargins {
  const t = maskTotals(masks, dev);
  const gold = new Float64Array(t.goldKept);
  const all = new Float64Array(t.kept);
  let g = 0;
  let a = 0;
  let buf = new Float64Array(0);
  dev.forEach((s, k) => {
    const mask = masks[k]!;
    if (buf.length < mask.bits.length) buf = new Float64Array(mask.bits.length * 2);
    f.margins(prefix.prepare(s, vocab), mask, buf);
    const size = mask.size;
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        if (mask.bits[h * size + m] === 0) continue;
        all[a++] = buf[h * size + m]!;
        if (s.head[m] === h) gold[g++] = buf[h * size + m]!;
      }
  });
  return {
    gold,
    all,
    arcs: t.arcs,
    goldTotal: t.gold,
    prefixRemoved: t.arcs - t.kept,
    prefixGoldLost: t.gold - t.goldKept,
  };
}

/**
 * The operating point for a coverage target (%): the lowest bias at which prefix + filter keep at
 * least that share of the gold arcs (the bias sits on a gold arc's margin: it and its ties stay),
 * with the coverage and reduction (%) it gives.
 */
export function operatingPoint(
  d: DevMargins,
  target: number,
): { bias: number; coverage: number; reduction: number } {
  const budget = Math.floor(d.goldTotal * (1 - target / 100) + 1e-9) - d.prefixGoldLost;
  const sorted = Float64Array.from(d.gold).sort().reverse();
  let bias: number;
  if (budget < 0 || sorted.length === 0) {
    let max = 0;
    for (const v of d.all) if (v > max) max = v;
    bias = sorted.length === 0 ? max : Math.max(max, sorted[0]!);
  } else if (budget >= sorted.length) {
    let min = 0;
    for (const v of d.all) if (v < min) min = v;
    bias = min - 1;
  } else bias = sorted[budget]!;
  if (!Number.isFinite(bias)) bias = 0;
  let lost = 0;
  for (const v of d.gold) if (v > bias) lost++;
  let removed = 0;
  for (const v of d.all) if (v > bias) removed++;
  return {
    bias,
    coverage: (100 * (d.goldTotal - d.prefixGoldLost - lost)) / d.goldTotal,
    reduction: (100 * (d.prefixRemoved + removed)) / d.arcs,
  };
}

/** Quantizes joint weights into a `JointFilter` (token roles as 16-bit integers, one scale per decision). */
function filterFromWeights(
  w: Float64Array,
  tagMap: TagMap,
  bits: number,
  crossRoot: boolean,
  withVine: boolean,
  withNone: boolean,
  pairLength: boolean,
  span: boolean,
  lexical: boolean,
  bias: number,
  info: JointTrainInfo,
): JointFilter {
  const D = 1 << bits;
  // Training lays out every arc feature; the filter keeps those it has (a prefix of the layout).
  const A = arcFeatureCount(tagMap.size);
  const kept = arcFeatureCount(tagMap.size, pairLength, span, lexical);
  const weights = new Int16Array(NUM_ROLES << bits);
  const scales = new Float64Array(NUM_ROLES);
  for (let d = 0; d < NUM_ROLES; d++) {
    let max = 0;
    for (let f = 0; f < D; f++) max = Math.max(max, Math.abs(w[(f << 3) + d]!));
    const scale = max > 0 ? max / 32767 : 1;
    scales[d] = scale;
    for (let f = 0; f < D; f++) weights[(f << 3) + d] = Math.round(w[(f << 3) + d]! / scale);
  }
  const roles = new TokenRoleFilter(
    tagMap,
    bits,
    weights,
    scales,
    new Float64Array(NUM_ROLES).fill(Number.POSITIVE_INFINITY),
    crossRoot,
  );
  const vine = withVine ? Float32Array.from(w.subarray(8 * D, 8 * D + kept)) : null;
  const none = withNone ? Float32Array.from(w.subarray(8 * D + A, 8 * D + A + kept)) : null;
  return new JointFilter(roles, vine, none, bias, info, pairLength, span, lexical);
}

/** Growable parallel arrays of constraints. */
class Constraints {
  pos = new Int32Array(1 << 16);
  posPlace = new Uint8Array(1 << 16);
  neg = new Int32Array(1 << 16);
  cost = new Float64Array(1 << 16);
  size = 0;
  add(pos: number, place: number, neg: number, cost: number): void {
    if (this.size === this.pos.length) {
      const cap = this.size * 2;
      const grow = <T extends Int32Array | Uint8Array | Float64Array>(a: T, make: (n: number) => T): T => {
        const b = make(cap);
        b.set(a);
        return b;
      };
      this.pos = grow(this.pos, (n) => new Int32Array(n));
      this.posPlace = grow(this.posPlace, (n) => new Uint8Array(n));
      this.neg = grow(this.neg, (n) => new Int32Array(n));
      this.cost = grow(this.cost, (n) => new Float64Array(n));
    }
    this.pos[this.size] = pos;
    this.posPlace[this.size] = place;
    this.neg[this.size] = neg;
    this.cost[this.size++] = cost;
  }
}

/**
 * Trains the joint filter of Bergsma & Cherry (2011) as a latent SVM. Examples are the arcs the
 * prefix leaves on train: an arc to filter (not gold) must have some event z ∈ Z_a beat None_a by 1,
 * an arc to keep (gold) must have None_a beat every z ∈ Z_a by 1. Alternations: (a) assign every arc
 * to filter its highest-scoring event under the current weights (the first time, the init filter's
 * subclassifiers, Vine and None at 0); (b) train the multiclass SVM on those assignments in its
 * Weston–Watkins form (one hinge per competitor: score(z*) − score(None) ≥ 1 for an arc to filter,
 * score(None) − score(z) ≥ 1 for each z of an arc to keep) with costs C1 / C0, which is a binary SVM
 * on difference vectors (`trainDifferenceSvm`; event feature rows stored once: token rows, and one
 * row per (tag pair, direction, length, span signature) of the arc features). After each alternation the filter's
 * operating point (a bias on None) is set on dev for the coverage target; the alternation removing
 * most dev arcs is kept. Memory: token feature rows once, ~20 bytes per constraint plus the solver's
 * 20; identical Vine constraints of arcs to keep are merged (cost × count).
 */
export function trainJointFilter(
  train: readonly Sentence[],
  dev: readonly Sentence[],
  vocab: Vocabularies,
  opts: JointTrainOptions = {},
): JointTrainResult {
  const tStart = performance.now();
  const log = opts.log ?? (() => {});
  const init = opts.init ?? null;
  const c1 = opts.c1 ?? 0.0001;
  const c0 = opts.c0 ?? 0.01;
  const withVine = opts.vine ?? true;
  const withNone = opts.none ?? true;
  const pairLength = opts.pairLength ?? true;
  const span = opts.span ?? pairLength;
  if (span && !pairLength) throw new RangeError("trainJointFilter: span features need the pair-length ones");
  const lexical = opts.lexical ?? false;
  if (lexical && !span) throw new RangeError("trainJointFilter: lexical features need the span ones");
  const alternations = opts.alternations ?? 4;
  const target = opts.coverage ?? 99.7;
  const crossRoot = opts.crossRoot ?? true;
  const prefix = opts.prefix ?? new PruningCascade();
  const sample = opts.sample ?? 1;
  const offShift = opts.offShift ?? 10;
  if (!(sample > 0 && sample <= 1)) throw new RangeError("trainJointFilter: sample must be in (0, 1]");
  if (alternations < 1) throw new RangeError("trainJointFilter: at least one alternation");
  const column =
    init !== null
      ? init.tagMap.column
      : opts.tags === undefined || opts.tags === "auto"
        ? TagMap.chooseColumn(train, vocab)
        : opts.tags;
  const tagMap = init !== null ? init.tagMap : new TagMap(TagMap.collect(train, vocab, column), column);
  const bits = init !== null ? init.bits : (opts.bits ?? 18);
  const sents = train.filter((s) => {
    for (let m = 1; m <= s.n; m++) if (s.head[m]! < 0) return false;
    return true;
  });

  // Event feature rows: every token once, then one row per (htd, length bucket, span signature).
  let t0 = performance.now();
  const S = tagMap.size;
  const H = 2 * S * S;
  const A = arcFeatureCount(S);
  const D = 1 << bits;
  const fx = new TokenRoleFeatures(tagMap, bits);
  const rowsB = new SparseRowsBuilder();
  const buf = new Int32Array(MAX_TOKEN_FEATURES);
  const base = new Int32Array(sents.length + 1);
  sents.forEach((s, k) => (base[k + 1] = base[k]! + s.n + 1));
  const tagsAll = new Int32Array(base[sents.length]!);
  const flagsAll = new Uint8Array(base[sents.length]!);
  const wordsAll = new Int32Array(lexical ? base[sents.length]! : 0);
  const lexAtoms = new LexAtoms();
  const flagTable = new SpanFlagTable();
  const masks: ArcMask[] = [];
  const initScores = new Float64Array(base[sents.length]! * NUM_ROLES);
  sents.forEach((s, k) => {
    const input = prefix.prepare(s, vocab);
    masks.push(prefix.prune(s, vocab));
    fx.prepare(input);
    for (let i = 1; i <= s.n; i++) rowsB.add(buf, null, fx.extract(i, buf));
    tagsAll.set(fx.tag.subarray(0, s.n + 1), base[k]!);
    flagTable.fill(s.upos, s.n, vocab.upos, flagsAll.subarray(base[k]!));
    if (lexical) wordsAll.set(lexAtoms.fill(s, vocab.form).subarray(0, s.n + 1), base[k]!);
    if (init !== null) {
      const sc = init.scoreAll(prefix.prepare(s, vocab));
      const o = base[k]! * NUM_ROLES;
      for (let i = 1; i <= s.n; i++)
        for (let d = 0; d < NUM_ROLES; d++) {
          const th = init.thresholds[d]!;
          initScores[o + i * NUM_ROLES + d] = sc[i * NUM_ROLES + d]! - (Number.isFinite(th) ? th : offShift);
        }
    }
  });
  const tokenRows = rowsB.size;
  const sigs = span ? SPAN_SIGS : 1;
  const idx = new Int32Array(7);
  /** Writes the dense arc features of (htd p, length len ≥ 1, span signature sig) into idx; returns how many. */
  const denseArc = (p: number, len: number, sig: number): number => {
    const l = (len < LEN_BUCKETS ? len : LEN_BUCKETS) - 1;
    idx[0] = p;
    idx[1] = H + l;
    idx[2] = pairLengthFeature(S, p, l + 1);
    idx[3] = spanFeature(S, p, sig);
    idx[4] = spanLengthFeature(S, sig, p & 1, l + 1);
    return span ? 5 : pairLength ? 3 : 2;
  };
  if (!lexical)
    for (let p = 0; p < H; p++)
      for (let l = 0; l < LEN_BUCKETS; l++)
        for (let sig = 0; sig < sigs; sig++) rowsB.add(idx, null, denseArc(p, l + 1, sig));
  const L0 = arcFeatureCount(S, true, true, false);
  const tokRow = (k: number, i: number) => base[k]! - k + i - 1;
  // The span signature of arc h→m of sentence k: the flags of the tokens strictly between.
  const sigOf = (k: number, h: number, m: number) => {
    if (!span) return 0;
    let sig = 0;
    const hi = base[k]! + (h > m ? h : m);
    for (let i = base[k]! + (h < m ? h : m) + 1; i < hi; i++) sig |= flagsAll[i]!;
    return sig;
  };
  const arcRow = (htd: number, len: number, sig: number) =>
    tokenRows + (htd * LEN_BUCKETS + (len < LEN_BUCKETS ? len : LEN_BUCKETS) - 1) * sigs + sig;
  const htdOf = (k: number, h: number, m: number) =>
    ((tagsAll[base[k]! + h]! * S + tagsAll[base[k]! + m]!) << 1) | (h < m ? 0 : 1);
  /**
   * The feature row of arc h→m of sentence k: with lexical features a row of its own (added now, so
   * every arc row exists before the rows are built), else the shared row of its dense features.
   */
  const rowOfArc = (k: number, h: number, m: number): number => {
    const htd = htdOf(k, h, m);
    const len = Math.abs(h - m);
    const sig = sigOf(k, h, m);
    if (!lexical) return arcRow(htd, len, sig);
    let c = denseArc(htd, len, sig);
    const dir = htd & 1;
    const b = base[k]!;
    idx[c++] = L0 + lexSlot(false, dir, tagsAll[b + h]!, wordsAll[b + m]!);
    idx[c++] = L0 + lexSlot(true, dir, tagsAll[b + m]!, wordsAll[b + h]!);
    // The builder sorts the row and merges two equal slots into one feature of value 2.
    rowsB.add(idx, null, c);
    return rowsB.size - 1;
  };
  // Placements: decision d's weights interleaved (f * 8 + d), then Vine, then None.
  const VINE = NUM_ROLES;
  const NONE = NUM_ROLES + 1;
  const placements = [
    ...Array.from({ length: NUM_ROLES }, (_, d) => ({ offset: d, stride: NUM_ROLES })),
    { offset: 8 * D, stride: 1 },
    { offset: 8 * D + A, stride: 1 },
  ];
  const dim = 8 * D + 2 * A;

  // Arcs to keep: one constraint per event of Z_a (Vine ones merged per arc-feature row).
  const keep = new Constraints();
  const vineKeep = new Float64Array(lexical ? 0 : H * LEN_BUCKETS * sigs);
  let goldArcs = 0;
  let filterArcs = 0;
  sents.forEach((s, k) => {
    const n = s.n;
    const mask = masks[k]!;
    const size = mask.size;
    for (let m = 1; m <= n; m++) {
      const h = s.head[m]!;
      if (mask.bits[h * size + m] === 0) continue;
      goldArcs++;
      const row = rowOfArc(k, h, m);
      const neg = withNone ? row : -1;
      if (h >= 1) keep.add(tokRow(k, h), ROLE.noHead, neg, c0);
      for (let d = 1; d < ROLE.root; d++)
        if (h < roleLo(d, m) || h > roleHi(d, m, n)) keep.add(tokRow(k, m), d, neg, c0);
      for (let j = 1; j <= n; j++) {
        if (mask.bits[j] === 0) continue;
        const filters =
          (j === m && h !== 0) ||
          (h === 0 && j !== m) ||
          (crossRoot && h >= 1 && Math.min(h, m) < j && j < Math.max(h, m));
        if (filters) keep.add(tokRow(k, j), ROLE.root, neg, c0);
      }
      if (withVine) {
        if (lexical) keep.add(row, VINE, withNone ? row : -1, c0);
        else vineKeep[row - tokenRows]! += c0;
      }
    }
    for (let h = 0; h <= n; h++)
      for (let m = 1; m <= n; m++) if (mask.bits[h * size + m] === 1 && s.head[m] !== h) filterArcs++;
  });
  for (let r = 0; r < vineKeep.length; r++)
    if (vineKeep[r]! > 0) keep.add(tokenRows + r, VINE, withNone ? tokenRows + r : -1, vineKeep[r]!);

  // Arcs to filter: a fixed sample (its row of None features); the event is assigned per alternation.
  const rng = { s: 0x9e3779b9 };
  const keepFilter = (): boolean => {
    if (sample >= 1) return true;
    rng.s = (Math.imul(rng.s, 1664525) + 1013904223) >>> 0;
    return rng.s / 4294967296 < sample;
  };
  const fArc = new Int32Array(Math.ceil(filterArcs * sample * 1.05) + 1024);
  let F = 0;
  // Arcs to filter are visited in the same order by the assignment step: store (sentence, h, m).
  const fSent = new Int32Array(fArc.length);
  const fCell = new Int32Array(fArc.length);
  sents.forEach((s, k) => {
    const mask = masks[k]!;
    const size = mask.size;
    for (let h = 0; h <= s.n; h++)
      for (let m = 1; m <= s.n; m++) {
        if (mask.bits[h * size + m] === 0 || s.head[m] === h || !keepFilter()) continue;
        if (F === fArc.length) break;
        fArc[F] = rowOfArc(k, h, m);
        fSent[F] = k;
        fCell[F++] = h * size + m;
      }
  });
  const x = rowsB.build();
  const N = keep.size + F;
  const problem: DifferenceProblem = {
    x,
    placements,
    dim,
    pos: new Int32Array(N),
    posPlace: new Uint8Array(N),
    neg: new Int32Array(N),
    negPlace: new Uint8Array(N).fill(NONE),
    labels: new Int8Array(N),
    cost: new Float64Array(N),
  };
  problem.pos.set(keep.pos.subarray(0, keep.size));
  problem.posPlace.set(keep.posPlace.subarray(0, keep.size));
  problem.neg.set(keep.neg.subarray(0, keep.size));
  problem.cost.set(keep.cost.subarray(0, keep.size));
  problem.labels.fill(-1, 0, keep.size);
  for (let e = 0; e < F; e++) {
    const k = keep.size + e;
    problem.neg[k] = withNone ? fArc[e]! : -1;
    problem.labels[k] = 1;
    problem.cost[k] = c1 / sample;
  }
  log(
    `joint: ${sents.length} sentences, ${tokenRows} token rows (${x.index.length} feature entries), ` +
      `${goldArcs} arcs to keep → ${keep.size} constraints, ${filterArcs} arcs to filter → ${F} constraints ` +
      `(sample ${sample}); ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // Dev masks once.
  const devMasks = cascadeMasks(prefix, dev, vocab);
  const firstVine = opts.firstVine ?? false;
  const scorer = new JointEventScorer(
    S,
    crossRoot,
    withVine && firstVine ? new Float64Array(A) : null,
    null,
    true,
  );
  let scores = initScores;
  let w: Float64Array | null = null;
  let alpha: Float64Array | null = null;
  const assigned = new Int32Array(F).fill(-3);
  const history: JointAlternation[] = [];
  let bestFilter: JointFilter | null = null;
  let bestIndex = 0;
  let bestReduction = -1;
  let bestCoverage = 0;
  for (let it = 1; it <= alternations; it++) {
    t0 = performance.now();
    // (a) Assignment: each arc to filter takes its highest-scoring event under the current weights.
    if (w !== null) {
      scores = new Float64Array(base[sents.length]! * NUM_ROLES);
      const { rowPtr, index, value } = x;
      sents.forEach((s, k) => {
        for (let i = 1; i <= s.n; i++) {
          const r = tokRow(k, i);
          const o = (base[k]! + i) * NUM_ROLES;
          for (let p = rowPtr[r]!; p < rowPtr[r + 1]!; p++) {
            const b = index[p]! << 3;
            const v = value[p]!;
            for (let d = 0; d < NUM_ROLES; d++) scores[o + d]! += w![b + d]! * v;
          }
        }
      });
      if (withVine) scorer.setWeights(w.subarray(8 * D, 8 * D + A), null);
    }
    let changed = 0;
    let e = 0;
    let lastK = -1;
    let lastH = -1;
    for (; e < F; e++) {
      const k = fSent[e]!;
      const mask = masks[k]!;
      const h = Math.floor(fCell[e]! / mask.size);
      if (k !== lastK) {
        const n = sents[k]!.n;
        scorer.prepare(
          scores.subarray(base[k]! * NUM_ROLES, (base[k]! + n + 1) * NUM_ROLES),
          tagsAll.subarray(base[k]!, base[k]! + n + 1),
          flagsAll.subarray(base[k]!, base[k]! + n + 1),
          mask,
          lexical ? wordsAll.subarray(base[k]!, base[k]! + n + 1) : null,
        );
        lastK = k;
        lastH = -1;
      }
      if (h !== lastH) {
        scorer.scanRow(h, mask);
        lastH = h;
      }
      const m = fCell[e]! - h * mask.size;
      const ev = scorer.event[m]!;
      const c = keep.size + e;
      if (ev !== assigned[e]) {
        changed++;
        // A new event is a new constraint: its dual variable starts again from 0.
        if (alpha !== null) alpha[c] = 0;
      }
      assigned[e] = ev;
      if (ev === EVENT_VINE) {
        problem.pos[c] = fArc[e]!;
        problem.posPlace[c] = VINE;
      } else {
        const t = ev >> 3;
        problem.pos[c] = tokRow(k, t);
        problem.posPlace[c] = ev & 7;
      }
    }
    const tAssign = (performance.now() - t0) / 1000;
    // (b) The multiclass SVM on the assignments.
    // Warm start: the keep constraints and the unchanged assignments keep their dual variables.
    const r = trainDifferenceSvm(problem, {
      eps: opts.eps ?? 0.1,
      maxIter: opts.maxIter ?? 200,
      seed: it,
      onPass: (pass, visited, spread) => {
        if (pass <= 3 || pass % 10 === 0)
          log(
            `joint:   pass ${pass}: ${visited} examples active, gradient spread ${spread.toFixed(3)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
          );
      },
      ...(alpha !== null ? { alpha } : {}),
    });
    w = r.w;
    alpha = r.alpha;
    const objective = differencePrimalObjective(problem, w);
    // Operating point on dev.
    const info: JointTrainInfo = {};
    const f0 = filterFromWeights(
      w,
      tagMap,
      bits,
      crossRoot,
      withVine,
      withNone,
      pairLength,
      span,
      lexical,
      0,
      info,
    );
    const dm = devMargins(f0, dev, vocab, prefix, devMasks);
    const op = operatingPoint(dm, target);
    const seconds = (performance.now() - t0) / 1000;
    const rec: JointAlternation = {
      examples: N,
      passes: r.iterations,
      objective: round(objective, 2),
      changed,
      coverage: round(op.coverage, 3),
      reduction: round(op.reduction, 3),
      bias: op.bias,
      seconds: round(seconds, 1),
    };
    history.push(rec);
    log(
      `joint: alternation ${it}: ${changed} of ${F} assignments changed (${tAssign.toFixed(1)} s), ` +
        `${r.iterations} solver passes${r.converged ? "" : " (not converged)"}, objective ${rec.objective}; ` +
        `dev ${rec.coverage}% coverage, ${rec.reduction}% reduction at bias ${op.bias.toPrecision(4)} (${rec.seconds} s)`,
    );
    if (op.reduction > bestReduction) {
      bestReduction = op.reduction;
      bestCoverage = op.coverage;
      bestIndex = it;
      bestFilter = f0.withBias(op.bias);
    }
  }
  const seconds = (performance.now() - tStart) / 1000;
  const info: JointTrainInfo = {
    c1,
    c0,
    alternations,
    chosen: bestIndex,
    coverage: round(bestCoverage, 3),
    reduction: round(bestReduction, 3),
    target,
    curve: history.map((h) => [h.coverage, h.reduction]),
    init: init === null ? "zero" : (opts.initName ?? "an independently trained linear filter"),
    examples: N,
    seconds: round(seconds, 1),
  };
  return {
    filter: bestFilter!.withBias(bestFilter!.bias, info),
    alternations: history,
    chosen: bestIndex,
    coverage: round(bestCoverage, 3),
    reduction: round(bestReduction, 3),
    seconds,
  };
}
