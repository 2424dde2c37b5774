import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { PruningCascade } from "./cascade.js";
import { PosRulesPruner, type PosRules, TOKEN_RULES } from "./pos-rules.js";
import {
  type AggregatedProblem,
  type RuleClassifierWeights,
  ruleDecision,
  type RuleLearner,
} from "./rule-learner.js";
import { HEAD_LEFT, HEAD_RIGHT, TagArcCounts, tripleIndex } from "./tag-arc-counts.js";
import { type TagColumn, TagMap } from "./tag-map.js";

/**
 * The five classifiers behind the PoS rules: four over one token's tag (not a head, no head on the
 * left, no head on the right, not the root) and one over a [direction, head tag, modifier tag] triple
 * (not linked).
 */
export const RULE_CLASSIFIERS = [...TOKEN_RULES, "pairs"] as const;
/** One of the rule classifiers. */
export type RuleClassifier = (typeof RULE_CLASSIFIERS)[number];

/** Weights of the five classifiers: token classifiers indexed by dense tag id, pairs by `tripleIndex`. */
export type RuleWeights = Record<RuleClassifier, ArrayLike<number>>;

/**
 * The aggregated training problems of the five classifiers on a treebank (gold heads), in the dense tag
 * ids of `tagMap`. Token examples are every token; pair examples are the token→token arcs `prefix`
 * leaves (the root's arcs are the not-a-root classifier's).
 */
export function ruleProblems(
  sentences: readonly Sentence[],
  vocab: Vocabularies,
  tagMap: TagMap,
  prefix?: PruningCascade,
): Record<RuleClassifier, AggregatedProblem> {
  const S = tagMap.size;
  const token = () => ({ pos: new Float64Array(S), neg: new Float64Array(S) });
  const out: Record<RuleClassifier, AggregatedProblem> = {
    notHead: token(),
    noHeadLeft: token(),
    noHeadRight: token(),
    notRoot: token(),
    pairs: { pos: new Float64Array(2 * S * S), neg: new Float64Array(2 * S * S) },
  };
  let tags = new Int32Array(64);
  let heads = new Uint8Array(64);
  for (const s of sentences) {
    const n = s.n;
    if (tags.length < n + 1) {
      tags = new Int32Array(2 * (n + 1));
      heads = new Uint8Array(2 * (n + 1));
    }
    tagMap.fill(s, vocab, tags);
    heads.fill(0, 0, n + 1);
    for (let m = 1; m <= n; m++) if (s.head[m]! >= 0) heads[s.head[m]!] = 1;
    for (let m = 1; m <= n; m++) {
      const t = tags[m]!;
      const g = s.head[m]!;
      if (g < 0) continue;
      (heads[m] === 1 ? out.notHead.neg : out.notHead.pos)[t]!++;
      (g >= 1 && g < m ? out.noHeadLeft.neg : out.noHeadLeft.pos)[t]!++;
      (g > m ? out.noHeadRight.neg : out.noHeadRight.pos)[t]!++;
      (g === 0 ? out.notRoot.neg : out.notRoot.pos)[t]!++;
    }
  }
  const c = TagArcCounts.collect(sentences, vocab, tagMap, prefix);
  const L1 = c.maxLength + 1;
  for (let t = 0; t < 2 * S * S; t++) {
    let all = 0;
    let gold = 0;
    for (let len = 1; len < L1; len++) {
      all += c.all[t * L1 + len]!;
      gold += c.gold[t * L1 + len]!;
    }
    out.pairs.pos[t] = all - gold;
    out.pairs.neg[t] = gold;
  }
  return out;
}

/** The rules named by positive entries: a tag (or tag triple) whose entry is > 0 becomes a rule. */
export function rulesFromWeights(w: RuleWeights, tagMap: TagMap): PosRules {
  const tags = tagMap.tags;
  const S = tagMap.size;
  const list = (x: ArrayLike<number>) => {
    const out: string[] = [];
    for (let t = 1; t <= tags.length; t++) if (x[t]! > 0) out.push(tags[t - 1]!);
    return out;
  };
  const pairs = (dir: number) => {
    const out: [string, string][] = [];
    for (let h = 1; h <= tags.length; h++)
      for (let m = 1; m <= tags.length; m++)
        if (w.pairs[tripleIndex(dir, h, m, S)]! > 0) out.push([tags[h - 1]!, tags[m - 1]!]);
    return out;
  };
  return {
    notHead: list(w.notHead),
    noHeadLeft: list(w.noHeadLeft),
    noHeadRight: list(w.noHeadRight),
    notRoot: list(w.notRoot),
    pairsHeadLeft: pairs(HEAD_LEFT),
    pairsHeadRight: pairs(HEAD_RIGHT),
  };
}

/** Default grid of per-example costs C1 of the filter class searched on dev. */
export const DEFAULT_RULE_C1S: readonly number[] = [1, 0.1, 0.01, 1e-3, 1e-4, 1e-5, 1e-6];
/** Default grid of cost ratios C2/C1 searched for each classifier on dev. */
export const DEFAULT_RULE_RATIOS: readonly number[] = [1, 3, 10, 30, 100, 300, 1000, 3000, 1e4, 1e5, 1e6];
/** Default value of the rule classifiers' bias feature (LIBLINEAR's -B 1). */
export const DEFAULT_RULE_BIAS = 1;
/** Default C1 of every classifier without dev data. */
export const DEFAULT_RULE_C1 = 1e-4;
/** Default C2/C1 of every classifier without dev data. */
export const DEFAULT_RULE_RATIO = 1000;
/**
 * Default coverage target of the rules on the development data (%). The rules spend the least of a
 * cascade's gold-arc budget: on en_ewt dev, rules at 99.8 / 99.9 / 99.95% (32.32 / 25.39 / 22.46%
 * reduction alone) leave Rules+Linear at 51.45 / 53.81 / 54.72% for 99.70% coverage, because the
 * token-role filters remove most of what the tag-only rules would, at a lower cost in gold arcs.
 */
export const DEFAULT_RULES_COVERAGE = 99.95;

/** The costs one classifier was learned with (null: the classifier is off, it makes no rules). */
export type RuleSetting = { c1: number; ratio: number } | null;

/** Coverage and reduction (%) of one choice of costs on the development data. */
export interface RulesPoint {
  /** Costs per classifier (the first grid setting giving its rule set; null: off). */
  settings: Record<RuleClassifier, RuleSetting>;
  /** % of all gold arcs kept (earlier passes included). */
  coverage: number;
  /** % of all possible arcs removed (earlier passes included). */
  reduction: number;
}

/** Options of `trainRules`. */
export interface RulesOptions {
  /** The SVM that learns each classifier. */
  learner: RuleLearner;
  /** Costs C1 searched on dev (default `DEFAULT_RULE_C1S`). */
  c1s?: readonly number[];
  /** Ratios C2/C1 searched on dev (default `DEFAULT_RULE_RATIOS`); every (C1, ratio) pair and "off" are tried. */
  ratios?: readonly number[];
  /** Without dev data: the C1 of every classifier (default `DEFAULT_RULE_C1`). */
  c1?: number;
  /** Without dev data: the C2/C1 of every classifier (default `DEFAULT_RULE_RATIO`). */
  ratio?: number;
  /** Value of the constant bias feature of every example (default 1; 0: no bias). */
  biasValue?: number;
  /** Coverage target on dev (%; default `DEFAULT_RULES_COVERAGE`), earlier passes included. */
  coverage?: number;
  /** Tag column (default: XPOS when informative, else UPOS). */
  column?: TagColumn;
  /** Passes before this one: pair examples and dev counts cover only the arcs they leave. */
  prefix?: PruningCascade;
}

/** A trained rules pass, with the search behind its costs. */
export interface RulesTraining {
  /** The pass. */
  pass: PosRulesPruner;
  /** The chosen point on dev (null without dev). */
  chosen: RulesPoint | null;
  /** Best dev reduction at each coverage over every combination (Pareto frontier; empty without dev). */
  frontier: RulesPoint[];
  /** Distinct rule sets per classifier (besides "off") that the cost grid gave. */
  options: Record<RuleClassifier, number>;
  /** Combinations of one rule set per classifier scored on dev. */
  combinations: number;
}

/** One distinct rule set of one classifier: the first setting giving it and its 0/1 table over features. */
interface Option {
  setting: RuleSetting;
  fire: Uint8Array;
}

/**
 * The rule set of one learned classifier: the observed features (with training examples) whose
 * decision value is positive. Features training never saw are not made rules even when a positive bias
 * would remove them: nothing was learned about them.
 */
function fireTable(p: AggregatedProblem, w: RuleClassifierWeights): Uint8Array {
  const fire = new Uint8Array(p.pos.length);
  for (let f = 0; f < fire.length; f++) if (p.pos[f]! + p.neg[f]! > 0 && ruleDecision(w, f) > 0) fire[f] = 1;
  return fire;
}

/**
 * Trains the PoS rules of Bergsma & Cherry (2010, §4.2): five high-precision classifiers on tags only
 * (not a head, no head on the left, no head on the right, not the root, not-linked [direction, head
 * tag, modifier tag] triples), each a cost-sensitive SVM with a bias feature learned by `opts.learner`,
 * their positive decisions read as rules. With dev data, each classifier is learned for every (C1,
 * C2/C1) of the grid, its distinct rule sets (plus "off") are its options, and every combination of one
 * option per classifier is scored exactly on dev from aggregated counts: the combination removing most
 * arcs while keeping the coverage target wins (ties: fewer gold arcs lost, then fewer rules). When none
 * meets the target, every classifier is off. Without dev, every classifier uses `opts.c1` / `opts.ratio`.
 */
export function trainRules(
  train: readonly Sentence[],
  dev: readonly Sentence[] | undefined,
  vocab: Vocabularies,
  opts: RulesOptions,
): RulesTraining {
  const column = opts.column ?? TagMap.chooseColumn(train, vocab);
  const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);
  const bias = opts.biasValue ?? DEFAULT_RULE_BIAS;
  const problems = ruleProblems(train, vocab, tagMap, opts.prefix);
  const learn = (k: RuleClassifier, c1: number, ratio: number): Uint8Array =>
    fireTable(problems[k], opts.learner(problems[k], c1, c1 * ratio, bias));
  const noOptions = Object.fromEntries(RULE_CLASSIFIERS.map((k) => [k, 0])) as Record<RuleClassifier, number>;
  if (dev === undefined || dev.length === 0) {
    const setting = { c1: opts.c1 ?? DEFAULT_RULE_C1, ratio: opts.ratio ?? DEFAULT_RULE_RATIO };
    const fire = {} as Record<RuleClassifier, Uint8Array>;
    for (const k of RULE_CLASSIFIERS) fire[k] = learn(k, setting.c1, setting.ratio);
    const settings = Object.fromEntries(RULE_CLASSIFIERS.map((k) => [k, setting])) as Record<
      RuleClassifier,
      RuleSetting
    >;
    const pass = new PosRulesPruner(rulesFromWeights(fire, tagMap), column, tagMap.tags, { bias, settings });
    return { pass, chosen: null, frontier: [], options: noOptions, combinations: 0 };
  }
  const c1s = opts.c1s ?? DEFAULT_RULE_C1S;
  const ratios = opts.ratios ?? DEFAULT_RULE_RATIOS;
  const options = {} as Record<RuleClassifier, Option[]>;
  const counts = { ...noOptions };
  for (const k of RULE_CLASSIFIERS) {
    const size = problems[k].pos.length;
    const list: Option[] = [{ setting: null, fire: new Uint8Array(size) }];
    const seen = new Set<string>([""]);
    for (const c1 of c1s)
      for (const ratio of ratios) {
        const fire = learn(k, c1, ratio);
        let key = "";
        for (let f = 0; f < size; f++) if (fire[f] === 1) key += `${f},`;
        if (seen.has(key)) continue;
        seen.add(key);
        list.push({ setting: { c1, ratio }, fire });
      }
    options[k] = list;
    counts[k] = list.length - 1;
  }
  const cells = devCells(TagArcCounts.collect(dev, vocab, tagMap, opts.prefix));
  const target = opts.coverage ?? DEFAULT_RULES_COVERAGE;
  const search = searchCombinations(options, cells, target);
  const fire = {} as Record<RuleClassifier, Uint8Array>;
  RULE_CLASSIFIERS.forEach((k, i) => (fire[k] = options[k][search.best[i]!]!.fire));
  const chosen = search.chosen;
  const pass = new PosRulesPruner(rulesFromWeights(fire, tagMap), column, tagMap.tags, {
    bias,
    settings: chosen.settings,
    target,
    devCoverage: round4(chosen.coverage),
    devReduction: round4(chosen.reduction),
  });
  return { pass, chosen, frontier: search.frontier, options: counts, combinations: search.combinations };
}

/** Dev arcs between tokens aggregated by [direction, head tag, modifier tag]; root arcs by modifier tag. */
interface DevCells {
  /** Per non-empty triple: head tag, modifier tag, triple index, gold and candidate arcs. */
  head: Int32Array;
  mod: Int32Array;
  triple: Int32Array;
  gold: Float64Array;
  all: Float64Array;
  /** How many of the triples (first in the arrays) have the head on the left. */
  left: number;
  rootGold: Float64Array;
  rootAll: Float64Array;
  /** Gold and candidate arcs earlier passes left; tokens (gold arcs in all); possible arcs Σ n². */
  goldKept: number;
  kept: number;
  tokens: number;
  arcs: number;
}

function devCells(c: TagArcCounts): DevCells {
  const S = c.tags;
  const L1 = c.maxLength + 1;
  const idx: number[] = [];
  const g: number[] = [];
  const a: number[] = [];
  let left = 0;
  // tripleIndex puts every head-left triple before every head-right one.
  for (let t = 0; t < 2 * S * S; t++) {
    let all = 0;
    let gold = 0;
    for (let len = 1; len < L1; len++) {
      all += c.all[t * L1 + len]!;
      gold += c.gold[t * L1 + len]!;
    }
    if (all > 0) {
      idx.push(t);
      g.push(gold);
      a.push(all);
      if (t < S * S) left++;
    }
  }
  const triple = Int32Array.from(idx);
  return {
    triple,
    head: triple.map((t) => Math.floor(t / S) % S),
    mod: triple.map((t) => t % S),
    gold: Float64Array.from(g),
    all: Float64Array.from(a),
    left,
    rootGold: Float64Array.from(c.rootGold),
    rootAll: Float64Array.from(c.rootAll),
    goldKept: c.goldKept,
    kept: c.kept,
    tokens: c.tokens,
    arcs: c.arcs,
  };
}

/**
 * Exhaustive search over one option per classifier, scored exactly from aggregated dev counts. A
 * head-left arc is removed by not-a-head (its head's tag), no-head-left (its modifier's tag) or a pair
 * rule; a head-right arc likewise with no-head-right; a root arc by not-a-root alone. So for each
 * (not-a-head, pairs) choice the head-left cells depend on the no-head-left option only, the head-right
 * cells on no-head-right only and the root arcs on not-a-root only: each part is scored once per
 * option and every combination is a sum of three parts, O(|notHead|·|pairs|·(|left| + |right|)·cells
 * + combinations).
 */
function searchCombinations(
  options: Record<RuleClassifier, Option[]>,
  d: DevCells,
  target: number,
): { best: number[]; chosen: RulesPoint; frontier: RulesPoint[]; combinations: number } {
  const oh = options.notHead;
  const ol = options.noHeadLeft;
  const or = options.noHeadRight;
  const ot = options.notRoot;
  const op = options.pairs;
  const rootLost = new Float64Array(ot.length);
  const rootRemoved = new Float64Array(ot.length);
  ot.forEach((o, i) => {
    for (let t = 0; t < d.rootAll.length; t++)
      if (o.fire[t] === 1) {
        rootLost[i] += d.rootGold[t]!;
        rootRemoved[i] += d.rootAll[t]!;
      }
  });
  const ruleCount = (o: Option) => o.fire.reduce((x, y) => x + y, 0);
  const rules = RULE_CLASSIFIERS.map((k) => options[k].map(ruleCount));
  const nc = d.triple.length;
  const base = new Uint8Array(nc);
  const leftLost = new Float64Array(ol.length);
  const leftRemoved = new Float64Array(ol.length);
  const rightLost = new Float64Array(or.length);
  const rightRemoved = new Float64Array(or.length);
  const budget = d.goldKept - (target * d.tokens) / 100 + 1e-6;
  // Pareto frontier by gold arcs lost (integers): most removed, and the choice, per lost count.
  const frontRemoved = new Float64Array(Math.round(d.goldKept) + 1).fill(-1);
  const frontChoice: number[][] = [];
  let best = [0, 0, 0, 0, 0];
  let bestLost = 0;
  let bestRemoved = 0;
  let bestRules = 0;
  let combinations = 0;
  for (let a = 0; a < oh.length; a++) {
    const fa = oh[a]!.fire;
    for (let e = 0; e < op.length; e++) {
      const fe = op[e]!.fire;
      for (let i = 0; i < nc; i++) base[i] = fa[d.head[i]!] === 1 || fe[d.triple[i]!] === 1 ? 1 : 0;
      const side = (opts: Option[], from: number, to: number, lost: Float64Array, removed: Float64Array) =>
        opts.forEach((o, j) => {
          let l = 0;
          let r = 0;
          const f = o.fire;
          for (let i = from; i < to; i++)
            if (base[i] === 1 || f[d.mod[i]!] === 1) {
              l += d.gold[i]!;
              r += d.all[i]!;
            }
          lost[j] = l;
          removed[j] = r;
        });
      side(ol, 0, d.left, leftLost, leftRemoved);
      side(or, d.left, nc, rightLost, rightRemoved);
      const ruleAE = rules[0]![a]! + rules[4]![e]!;
      for (let b = 0; b < ol.length; b++)
        for (let c = 0; c < or.length; c++)
          for (let r = 0; r < ot.length; r++) {
            combinations++;
            const lost = leftLost[b]! + rightLost[c]! + rootLost[r]!;
            const removed = leftRemoved[b]! + rightRemoved[c]! + rootRemoved[r]!;
            const li = Math.round(lost);
            if (removed > frontRemoved[li]!) {
              frontRemoved[li] = removed;
              frontChoice[li] = [a, b, c, r, e];
            }
            if (lost > budget) continue;
            const nr = ruleAE + rules[1]![b]! + rules[2]![c]! + rules[3]![r]!;
            if (
              removed > bestRemoved ||
              (removed === bestRemoved && (lost < bestLost || (lost === bestLost && nr < bestRules)))
            ) {
              best = [a, b, c, r, e];
              bestLost = lost;
              bestRemoved = removed;
              bestRules = nr;
            }
          }
    }
  }
  const point = (choice: number[], lost: number, removed: number): RulesPoint => ({
    settings: Object.fromEntries(
      RULE_CLASSIFIERS.map((k, i) => [k, options[k][choice[i]!]!.setting]),
    ) as Record<RuleClassifier, RuleSetting>,
    coverage: d.tokens === 0 ? 100 : (100 * (d.goldKept - lost)) / d.tokens,
    reduction: d.arcs === 0 ? 0 : (100 * (d.arcs - d.kept + removed)) / d.arcs,
  });
  const frontier: RulesPoint[] = [];
  let top = -1;
  for (let li = 0; li < frontRemoved.length; li++)
    if (frontRemoved[li]! > top) {
      top = frontRemoved[li]!;
      frontier.push(point(frontChoice[li]!, li, top));
    }
  return { best, chosen: point(best, bestLost, bestRemoved), frontier, combinations };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
