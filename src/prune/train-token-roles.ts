import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { round } from "../eval/percent.js";
import type { ArcMask } from "../mask/arc-mask.js";
import { PruningCascade } from "./cascade.js";
import { cascadeMasks, maskTotals } from "./cascade-masks.js";
import {
  type CombinationResult,
  MAX_CANDIDATES,
  searchCombinations,
  SignatureTable,
} from "./combination-search.js";
import { type FilterCosts, type FilterLearner, learnAll } from "./filter-learner.js";
import { type SparseRows, SparseRowsBuilder } from "./sparse-rows.js";
import { TagMap, type TagColumn } from "./tag-map.js";
import { roleDecisionQuality } from "./token-role-analysis.js";
import {
  applyRoles,
  NUM_ROLES,
  ROLE,
  ROLE_NAMES,
  roleActive,
  roleHi,
  roleLabels,
  roleLo,
} from "./token-role-decisions.js";
import { MAX_TOKEN_FEATURES, TokenRoleFeatures } from "./token-role-features.js";
import { type RoleDecisionInfo, TokenRoleFilter } from "./token-role-filter.js";

/**
 * Default cost grid of the decision SVMs (C1 for "the decision holds", C2 for "it does not"). On
 * en_ewt dev this grid gives Rules+Linear 51.45% reduction at 99.7% coverage, against 50.80% for the
 * earlier grid {0.1:1, 0.1:10}.
 */
export const DEFAULT_ROLE_COSTS: readonly FilterCosts[] = [
  { c1: 0.01, c2: 0.1 },
  { c1: 0.01, c2: 1 },
  { c1: 0.03, c2: 1 },
];

/**
 * Default candidate operating points of each decision: the lowest threshold at which the decision
 * alone loses at most this share (%) of the dev gold arcs (0: none).
 */
export const DEFAULT_ROLE_LEVELS: readonly number[] = [0, 0.01, 0.02, 0.04, 0.08, 0.16];

/** Options of `trainTokenRoleFilter`. */
export interface TokenRoleTrainOptions {
  /** The learner (a cost-sensitive linear SVM). */
  learner: FilterLearner;
  /** Tag column (default "auto": XPOS when informative). */
  tags?: TagColumn | "auto";
  /** log2 of the hashed feature slots (default 18). */
  bits?: number;
  /** Cost settings to train each decision at (default `DEFAULT_ROLE_COSTS`). */
  costs?: readonly FilterCosts[];
  /** Coverage target (%) of prefix + filter on dev (default 99.7). */
  coverage?: number;
  /** Candidate loss levels (% of dev gold arcs) per decision (default `DEFAULT_ROLE_LEVELS`). */
  levels?: readonly number[];
  /** Whether a detected root removes the arcs crossing it (default true). */
  crossRoot?: boolean;
  /** Passes before this one: training and tuning use what they leave (default none). */
  prefix?: PruningCascade;
  /** Features listed per decision in `filter show` (default 8). */
  topFeatures?: number;
  /** Progress output. */
  log?: (line: string) => void;
}

/** The chosen combination and how the search got there. */
export interface TokenRoleSearch extends CombinationResult {
  /** Gold arcs the linear decisions may remove on dev (the coverage target's budget after the prefix). */
  budget: number;
  /** Distinct arc signatures the search ran over. */
  signatures: number;
  /** Size of the candidate grid (∏ (candidates + 1)). */
  combinations: number;
  /** Seconds the search took. */
  seconds: number;
  /** Per decision, the index of the cost setting chosen. */
  costIndex: number[];
}

/** A point of the coverage–reduction curve of prefix + linear on dev (Figure 2). */
export interface CurvePoint {
  coverage: number;
  reduction: number;
}

/** What `trainTokenRoleFilter` returns. */
export interface TokenRoleTrainResult {
  /** The trained filter (thresholds chosen on dev). */
  filter: TokenRoleFilter;
  /** The combination search. */
  search: TokenRoleSearch;
  /** Dev coverage and reduction (%) of prefix + filter as the search counted them. */
  predicted: CurvePoint;
  /** Best reduction at a range of coverage targets (the Lin curve of Figure 2). */
  curve: CurvePoint[];
  /** Seconds spent in the learner. */
  learnSeconds: number;
}

/** Dev material shared by every cost setting: prefix masks, labels, what each decision would remove. */
interface DevData {
  sentences: readonly Sentence[];
  masks: ArcMask[];
  /** Offsets of each sentence's [i * 8 + d] block in the flat per-token arrays. */
  offset: Int32Array;
  labels: Uint8Array;
  /** Arcs a positive decision would remove alone (0: inactive); for root, if that token were the root. */
  removes: Float64Array;
  /** Gold arcs among them. */
  loses: Float64Array;
  gold: number;
  arcs: number;
  prefixKept: number;
  prefixGoldKept: number;
}

/**
 * Trains the token-role filter (Bergsma & Cherry 2010, §4.3) on what `prefix` leaves: one shared
 * feature vector per token (Table 2) and, per decision and cost setting, a high-precision SVM over the
 * tokens where the decision has something to remove. On dev, each decision's candidates are the
 * thresholds at which it alone loses at most each level of gold arcs (using the cost setting that
 * removes most over those levels); the exact search over combinations of candidates then picks the
 * one removing most arcs at the coverage target.
 */
export function trainTokenRoleFilter(
  train: readonly Sentence[],
  dev: readonly Sentence[],
  vocab: Vocabularies,
  opts: TokenRoleTrainOptions,
): TokenRoleTrainResult {
  const log = opts.log ?? (() => {});
  const bits = opts.bits ?? 18;
  const costs = opts.costs ?? DEFAULT_ROLE_COSTS;
  const target = opts.coverage ?? 99.7;
  const levels = [...(opts.levels ?? DEFAULT_ROLE_LEVELS)].sort((a, b) => a - b);
  const crossRoot = opts.crossRoot ?? true;
  const prefix = opts.prefix ?? new PruningCascade();
  if (levels.length < 1 || levels.length > MAX_CANDIDATES)
    throw new RangeError(`trainTokenRoleFilter: 1 to ${MAX_CANDIDATES} candidate levels`);
  if (costs.length < 1) throw new RangeError("trainTokenRoleFilter: at least one cost setting");
  const column =
    opts.tags === undefined || opts.tags === "auto" ? TagMap.chooseColumn(train, vocab) : opts.tags;
  const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);

  // Training examples: every token's features once; per decision, the tokens where it is active.
  let t0 = performance.now();
  const fx = new TokenRoleFeatures(tagMap, bits);
  const { x, decRows, decLabels } = tokenRoleExamples(train, vocab, prefix, fx);
  log(
    `linear: ${x.rows} tokens, ${x.index.length} feature entries; examples per decision: ${ROLE_NAMES.map((r, d) => `${r} ${decRows[d]!.length}`).join(", ")} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  // One model per cost setting and decision, quantized as it will be stored.
  const dim = 1 << bits;
  const quantized: { weights: Int16Array; scales: Float64Array }[] = [];
  t0 = performance.now();
  const problems = ROLE_NAMES.map((_, d) => ({
    x,
    rows: Int32Array.from(decRows[d]!),
    labels: Int8Array.from(decLabels[d]!),
    dim,
  }));
  const learned = learnAll(
    opts.learner,
    costs.flatMap((c) => problems.map((problem) => ({ problem, costs: c }))),
  );
  const learnSeconds = (performance.now() - t0) / 1000;
  costs.forEach((c, ci) => {
    const weights = new Int16Array(NUM_ROLES << bits);
    const scales = new Float64Array(NUM_ROLES);
    for (let d = 0; d < NUM_ROLES; d++) {
      const w = learned[ci * NUM_ROLES + d]!;
      let max = 0;
      for (let f = 0; f < dim; f++) if (Math.abs(w[f]!) > max) max = Math.abs(w[f]!);
      const scale = max > 0 ? max / 32767 : 1;
      scales[d] = scale;
      for (let f = 0; f < dim; f++) weights[(f << 3) + d] = Math.round(w[f]! / scale);
    }
    quantized.push({ weights, scales });
  });
  log(`linear: trained 8 decisions at ${costs.length} cost setting(s) in ${learnSeconds.toFixed(1)} s`);

  // Dev: prefix masks, labels, and what each decision would remove on each token.
  const dd = devData(dev, vocab, prefix, crossRoot);
  const off = Number.POSITIVE_INFINITY;
  const settingScores = quantized.map((q) => {
    const f = new TokenRoleFilter(
      tagMap,
      bits,
      q.weights,
      q.scales,
      new Float64Array(NUM_ROLES).fill(off),
      crossRoot,
    );
    const all = new Float64Array(dd.offset[dev.length]!);
    dev.forEach((s, k) => {
      const sc = f.scoreAll(prefix.prepare(s, vocab));
      all.set(sc.subarray(0, (s.n + 1) * NUM_ROLES), dd.offset[k]!);
    });
    return all;
  });

  // Candidates per decision: thresholds by loss level, from the cost setting that removes most.
  const levelArcs = levels.map((l) => Math.floor((dd.gold * l) / 100 + 1e-9));
  const costIndex: number[] = [];
  const thresholds: number[][] = [];
  for (let d = 0; d < NUM_ROLES; d++) {
    let bestC = 0;
    let bestGain = -1;
    let bestThr: number[] = [];
    settingScores.forEach((scores, c) => {
      const units = decisionUnits(dd, scores, d);
      const { thr, removed } = levelThresholds(units, levelArcs);
      const gain = removed.reduce((a, b) => a + b, 0);
      if (gain > bestGain) {
        bestGain = gain;
        bestC = c;
        bestThr = thr;
      }
    });
    costIndex.push(bestC);
    thresholds.push(bestThr);
  }

  // The exact search over combinations of candidates.
  t0 = performance.now();
  const table = signatures(dd, settingScores, costIndex, thresholds, crossRoot);
  const problem = table.problem();
  const prefixLost = dd.gold - dd.prefixGoldKept;
  const budgetFor = (cov: number) => Math.floor(dd.gold * (1 - cov / 100) + 1e-9) - prefixLost;
  const budget = budgetFor(target);
  const best =
    budget >= 0
      ? searchCombinations(problem, budget)
      : { choice: new Array<number>(NUM_ROLES).fill(0), removed: 0, goldLost: 0, nodes: 0 };
  const seconds = (performance.now() - t0) / 1000;
  if (budget < 0)
    log(`linear: the prefix alone is below ${target}% coverage on dev; every decision stays off`);
  const combinations = thresholds.reduce((a, t) => a * (t.length + 1), 1);
  log(
    `linear: searched ${combinations} combinations (${problem.size} signatures, ${best.nodes} nodes) in ${seconds.toFixed(2)} s: ` +
      `choice ${best.choice.map((j, d) => `${ROLE_NAMES[d]}=${j}`).join(" ")}`,
  );
  const toPoint = (removed: number, lost: number): CurvePoint => ({
    coverage: round((100 * (dd.prefixGoldKept - lost)) / dd.gold, 3),
    reduction: round((100 * (dd.arcs - dd.prefixKept + removed)) / dd.arcs, 3),
  });
  const curve: CurvePoint[] = [];
  for (const cov of [99.95, 99.9, 99.85, 99.8, 99.75, 99.7, 99.65, 99.6, 99.55, 99.5]) {
    const b = budgetFor(cov);
    if (b < 0) continue;
    const r = searchCombinations(problem, b);
    curve.push(toPoint(r.removed, r.goldLost));
  }

  // The final filter: each decision's weights from its cost setting, thresholds from its candidate.
  const weights = new Int16Array(NUM_ROLES << bits);
  const scales = new Float64Array(NUM_ROLES);
  const thr = new Float64Array(NUM_ROLES);
  for (let d = 0; d < NUM_ROLES; d++) {
    const q = quantized[costIndex[d]!]!;
    for (let f = 0; f < dim; f++) weights[(f << 3) + d] = q.weights[(f << 3) + d]!;
    scales[d] = q.scales[d]!;
    const j = best.choice[d]!;
    thr[d] = j === 0 ? off : thresholds[d]![j - 1]!;
  }
  let filter = new TokenRoleFilter(tagMap, bits, weights, scales, thr, crossRoot);
  const quality = roleDecisionQuality(filter, dev, vocab, prefix);
  const top = topFeatures(filter, train, vocab, prefix, opts.topFeatures ?? 8);
  const info: RoleDecisionInfo[] = ROLE_NAMES.map((_, d) => ({
    c1: costs[costIndex[d]!]!.c1,
    c2: costs[costIndex[d]!]!.c2,
    precision: quality[d]!.precision,
    recall: quality[d]!.recall,
    top: top[d]!,
  }));
  filter = new TokenRoleFilter(tagMap, bits, weights, scales, thr, crossRoot, info);
  return {
    filter,
    search: { ...best, budget, signatures: problem.size, combinations, seconds, costIndex },
    predicted: toPoint(best.removed, best.goldLost),
    curve,
    learnSeconds,
  };
}

/** Prefix masks of dev and, per token and decision, what a positive decision would remove alone. */
function devData(
  dev: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade,
  crossRoot: boolean,
): DevData {
  const masks = cascadeMasks(prefix, dev, vocab);
  const offset = new Int32Array(dev.length + 1);
  dev.forEach((s, k) => (offset[k + 1] = offset[k]! + (s.n + 1) * NUM_ROLES));
  const total = offset[dev.length]!;
  const labels = new Uint8Array(total);
  const removes = new Float64Array(total);
  const loses = new Float64Array(total);
  let deps = new Int32Array(0);
  let pos = new Uint8Array(0);
  dev.forEach((s, k) => {
    const n = s.n;
    const mask = masks[k]!;
    const o0 = offset[k]!;
    if (deps.length < n + 1) deps = new Int32Array((n + 1) * 2);
    if (pos.length < (n + 1) * NUM_ROLES) pos = new Uint8Array((n + 1) * NUM_ROLES * 2);
    roleLabels(s.head, n, deps, labels.subarray(o0, o0 + (n + 1) * NUM_ROLES));
    const size = mask.size;
    const bits = mask.bits;
    for (let i = 1; i <= n; i++) {
      const o = o0 + i * NUM_ROLES;
      // no-head: the arcs i heads.
      for (let m = 1; m <= n; m++) {
        if (bits[i * size + m] === 0) continue;
        removes[o]!++;
        if (s.head[m] === i) loses[o]!++;
      }
      for (let d = 1; d < ROLE.root; d++) {
        const lo = roleLo(d, i);
        const hi = roleHi(d, i, n);
        for (let h = 0; h <= n; h++) {
          if ((h >= lo && h <= hi) || bits[h * size + i] === 0) continue;
          removes[o + d]!++;
          if (s.head[i] === h) loses[o + d]!++;
        }
      }
      if (bits[i] === 1) {
        // root: apply it alone to a copy and count.
        pos.fill(0);
        const copy = mask.clone();
        applyRoles(copy, pos, i, crossRoot);
        let gone = 0;
        let goneGold = 0;
        for (let h = 0; h <= n; h++)
          for (let m = 1; m <= n; m++)
            if (bits[h * size + m] === 1 && copy.bits[h * size + m] === 0) {
              gone++;
              if (s.head[m] === h) goneGold++;
            }
        removes[o + ROLE.root] = gone;
        loses[o + ROLE.root] = goneGold;
      }
    }
  });
  const t = maskTotals(masks, dev);
  return {
    sentences: dev,
    masks,
    offset,
    labels,
    removes,
    loses,
    gold: t.gold,
    arcs: t.arcs,
    prefixKept: t.kept,
    prefixGoldKept: t.goldKept,
  };
}

/** A unit a threshold acts on: a token (or, for root, a sentence's best root candidate). */
interface Unit {
  score: number;
  removes: number;
  loses: number;
}

/** The best root candidate of sentence k (a token whose root arc survives; -1: none). */
function rootCandidate(dd: DevData, scores: Float64Array, k: number): number {
  const s = dd.sentences[k]!;
  const mask = dd.masks[k]!;
  const o0 = dd.offset[k]!;
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let i = 1; i <= s.n; i++) {
    if (mask.bits[i] === 0) continue;
    const v = scores[o0 + i * NUM_ROLES + ROLE.root]!;
    if (v > bestScore) {
      bestScore = v;
      best = i;
    }
  }
  return best;
}

/** The units of decision d on dev: active tokens, or each sentence's root candidate. */
function decisionUnits(dd: DevData, scores: Float64Array, d: number): Unit[] {
  const units: Unit[] = [];
  dd.sentences.forEach((s, k) => {
    const o0 = dd.offset[k]!;
    if (d === ROLE.root) {
      const r = rootCandidate(dd, scores, k);
      if (r < 0) return;
      const o = o0 + r * NUM_ROLES + d;
      units.push({ score: scores[o]!, removes: dd.removes[o]!, loses: dd.loses[o]! });
      return;
    }
    for (let i = 1; i <= s.n; i++) {
      const o = o0 + i * NUM_ROLES + d;
      if (dd.removes[o]! > 0) units.push({ score: scores[o]!, removes: dd.removes[o]!, loses: dd.loses[o]! });
    }
  });
  return units;
}

/**
 * Per loss level (gold arcs), the lowest threshold at which the units scoring above it lose at most
 * that many gold arcs in total, and how many arcs they remove. Thresholds sit on a unit's score (that
 * unit and its ties stay off); when no unit needs to stay off, just below the lowest score.
 */
export function levelThresholds(
  units: Unit[],
  levelArcs: readonly number[],
): { thr: number[]; removed: number[] } {
  const sorted = units.slice().sort((a, b) => b.score - a.score);
  const thr: number[] = [];
  const removed: number[] = [];
  for (const L of levelArcs) {
    let lost = 0;
    let gone = 0;
    let t = Number.NaN;
    let a = 0;
    while (a < sorted.length) {
      // A group of tied scores fires together or not at all.
      let b = a;
      let gl = 0;
      let gr = 0;
      while (b < sorted.length && sorted[b]!.score === sorted[a]!.score) {
        gl += sorted[b]!.loses;
        gr += sorted[b]!.removes;
        b++;
      }
      if (lost + gl > L) {
        t = sorted[a]!.score;
        break;
      }
      lost += gl;
      gone += gr;
      a = b;
    }
    if (Number.isNaN(t)) {
      const low = sorted.length > 0 ? sorted[sorted.length - 1]!.score : 0;
      t = low - 1e-6 * Math.max(1, Math.abs(low));
    }
    thr.push(t);
    removed.push(gone);
  }
  return { thr, removed };
}

/** The signature of every dev arc under the candidates (see `combination-search.ts`). */
function signatures(
  dd: DevData,
  settingScores: Float64Array[],
  costIndex: readonly number[],
  thresholds: readonly number[][],
  crossRoot: boolean,
): SignatureTable {
  const k = thresholds.map((t) => t.length);
  const table = new SignatureTable(k);
  const lv = new Int32Array(NUM_ROLES);
  let tokLevel = new Int32Array(0);
  const levelOf = (score: number, d: number): number => {
    const t = thresholds[d]!;
    for (let j = 0; j < t.length; j++) if (score > t[j]!) return j + 1;
    return t.length + 1;
  };
  dd.sentences.forEach((s, si) => {
    const n = s.n;
    const mask = dd.masks[si]!;
    const o0 = dd.offset[si]!;
    if (tokLevel.length < (n + 1) * NUM_ROLES) tokLevel = new Int32Array((n + 1) * NUM_ROLES * 2);
    for (let i = 1; i <= n; i++)
      for (let d = 0; d < ROLE.root; d++)
        tokLevel[i * NUM_ROLES + d] = levelOf(settingScores[costIndex[d]!]![o0 + i * NUM_ROLES + d]!, d);
    const rootScores = settingScores[costIndex[ROLE.root]!]!;
    const r = rootCandidate(dd, rootScores, si);
    const rootLevel =
      r < 0 ? k[ROLE.root]! + 1 : levelOf(rootScores[o0 + r * NUM_ROLES + ROLE.root]!, ROLE.root);
    const size = mask.size;
    for (let h = 0; h <= n; h++) {
      for (let m = 1; m <= n; m++) {
        if (mask.bits[h * size + m] === 0) continue;
        lv[ROLE.noHead] = h >= 1 ? tokLevel[h * NUM_ROLES]! : k[ROLE.noHead]! + 1;
        for (let d = 1; d < ROLE.root; d++)
          lv[d] = h >= roleLo(d, m) && h <= roleHi(d, m, n) ? k[d]! + 1 : tokLevel[m * NUM_ROLES + d]!;
        let byRoot = false;
        if (r >= 1) {
          if (m === r) byRoot = h !== 0;
          else if (h === 0) byRoot = true;
          else if (crossRoot) byRoot = (h < r && m > r) || (h > r && m < r);
        }
        lv[ROLE.root] = byRoot ? rootLevel : k[ROLE.root]! + 1;
        table.add(lv, 1, s.head[m] === h ? 1 : 0);
      }
    }
  });
  return table;
}

/**
 * The `count` strongest features of each decision (largest positive weights: evidence that the
 * decision holds), named by re-extracting the features of up to 2,000 training sentences.
 */
function topFeatures(
  filter: TokenRoleFilter,
  train: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade,
  count: number,
): [string, number][][] {
  if (count <= 0) return ROLE_NAMES.map(() => []);
  const names = new Map<number, string>();
  const fx = new TokenRoleFeatures(filter.tagMap, filter.bits);
  const buf = new Int32Array(MAX_TOKEN_FEATURES);
  const list: string[] = [];
  for (const s of train.slice(0, 2000)) {
    fx.prepare(prefix.prepare(s, vocab));
    for (let i = 1; i <= s.n; i++) {
      list.length = 0;
      const k = fx.extract(i, buf, list);
      for (let j = 0; j < k; j++) if (!names.has(buf[j]!)) names.set(buf[j]!, list[j]!);
    }
  }
  return ROLE_NAMES.map((_, d) => {
    const scored: [string, number][] = [];
    for (const [f, name] of names) {
      const w = filter.weights[(f << 3) + d]! * filter.scales[d]!;
      if (w > 0) scored.push([name, round(w, 4)]);
    }
    scored.sort((a, b) => b[1] - a[1]);
    return scored.slice(0, count);
  });
}

/**
 * The token-role training examples: every token's features once (one sparse row per token), and per
 * decision the rows of the tokens where it is active after `prefix`, with their labels (+1 = the
 * decision should fire).
 */
export function tokenRoleExamples(
  train: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade,
  fx: TokenRoleFeatures,
): { x: SparseRows; decRows: number[][]; decLabels: number[][] } {
  const rowsB = new SparseRowsBuilder();
  const decRows: number[][] = ROLE_NAMES.map(() => []);
  const decLabels: number[][] = ROLE_NAMES.map(() => []);
  const buf = new Int32Array(MAX_TOKEN_FEATURES);
  let labels = new Uint8Array(0);
  let deps = new Int32Array(0);
  for (const s of train) {
    const n = s.n;
    if (labels.length < (n + 1) * NUM_ROLES) {
      labels = new Uint8Array((n + 1) * NUM_ROLES * 2);
      deps = new Int32Array((n + 1) * 2);
    }
    const mask = prefix.prune(s, vocab);
    fx.prepare(prefix.prepare(s, vocab));
    roleLabels(s.head, n, deps, labels);
    for (let i = 1; i <= n; i++) {
      const row = rowsB.add(buf, null, fx.extract(i, buf));
      for (let d = 0; d < NUM_ROLES; d++) {
        if (!roleActive(mask, d, i)) continue;
        decRows[d]!.push(row);
        decLabels[d]!.push(labels[i * NUM_ROLES + d] === 1 ? 1 : -1);
      }
    }
  }
  return { x: rowsB.build(), decRows, decLabels };
}
