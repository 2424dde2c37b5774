import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { PruningCascade } from "./cascade.js";
import { PosRulesPruner, type PosRules, type RulesInfo, TOKEN_RULES } from "./pos-rules.js";
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

/**
 * The training data of one rule classifier, aggregated: every example has exactly one binary feature
 * (a tag, or a tag triple), so identical examples are merged into one weighted example per feature and
 * label. `pos[f]` = how many examples with feature f belong to the filter class (+1: not a head, not
 * linked, …), `neg[f]` = how many are true (−1: the token heads something, the arc is in the tree, …).
 */
export interface AggregatedProblem {
  /** Weight of the +1 (remove) examples per feature. */
  pos: Float64Array;
  /** Weight of the −1 (keep) examples per feature. */
  neg: Float64Array;
}

/**
 * Learns the weights of one rule classifier: a cost-sensitive linear SVM without bias (L2
 * regularisation, hinge loss, cost c1 on +1 examples and c2 ≫ c1 on −1 examples) on aggregated
 * one-hot examples. A feature whose weight is positive becomes a rule.
 */
export type RuleLearner = (problem: AggregatedProblem, c1: number, c2: number) => Float64Array;

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

/** The rules named by positive weights: a tag (or tag triple) with weight > 0 becomes a rule. */
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

/** Default grid of cost ratios C2/C1 searched for each classifier (besides "off"). */
export const DEFAULT_RULE_RATIOS: readonly number[] = [1, 3, 10, 30, 100, 300, 1000, 3000, 1e4, 1e5, 1e6];
/** Default coverage target of the rules on the development data (%). */
export const DEFAULT_RULES_COVERAGE = 99.8;

/** Coverage and reduction (%) of one choice of costs on the development data. */
export interface RulesPoint {
  /** C2/C1 per classifier (null: off). */
  ratios: Record<RuleClassifier, number | null>;
  /** % of all gold arcs kept (earlier passes included). */
  coverage: number;
  /** % of all possible arcs removed (earlier passes included). */
  reduction: number;
}

/** Options of `trainRules`. */
export interface RulesOptions {
  /** The SVM that learns each classifier. */
  learner: RuleLearner;
  /** Cost of the filter class (default 1). */
  c1?: number;
  /** Ratios C2/C1 searched per classifier on dev (default `DEFAULT_RULE_RATIOS`); "off" is always tried. */
  ratios?: readonly number[];
  /** Without dev data: the ratio every classifier uses (default: the largest of `ratios`). */
  ratio?: number;
  /** Coverage target on dev (%; default 99.8), earlier passes included. */
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
  /** The chosen point (on dev; on train when there is no dev). */
  chosen: RulesPoint | null;
  /** Dev coverage–reduction of one shared ratio for every classifier, per ratio (empty without dev). */
  shared: RulesPoint[];
  /** Best dev reduction at each coverage over every combination (Pareto frontier; empty without dev). */
  frontier: RulesPoint[];
  /** Combinations evaluated on dev. */
  combinations: number;
}

/** What one option of one classifier removes: a 0/1 table over its features. */
interface Option {
  ratio: number | null;
  fire: Uint8Array;
}

/** Dev arcs aggregated by [direction, head tag, modifier tag] (token heads) and by modifier tag (root). */
interface DevCells {
  head: Int32Array;
  mod: Int32Array;
  dir: Uint8Array;
  triple: Int32Array;
  gold: Float64Array;
  all: Float64Array;
  rootGold: Float64Array;
  rootAll: Float64Array;
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
    }
  }
  const triple = Int32Array.from(idx);
  return {
    triple,
    head: triple.map((t) => Math.floor(t / S) % S),
    mod: triple.map((t) => t % S),
    dir: Uint8Array.from(idx, (t) => (t < S * S ? HEAD_LEFT : HEAD_RIGHT)),
    gold: Float64Array.from(g),
    all: Float64Array.from(a),
    rootGold: Float64Array.from(c.rootGold),
    rootAll: Float64Array.from(c.rootAll),
    goldKept: c.goldKept,
    kept: c.kept,
    tokens: c.tokens,
    arcs: c.arcs,
  };
}

/**
 * Trains the PoS rules of Bergsma & Cherry (2010, §4.2): five high-precision classifiers on tags only,
 * each learned by `opts.learner` for every cost ratio of the grid, their positive weights read as rules.
 * With dev data, every combination of one option per classifier ("off" or a ratio) is scored exactly on
 * dev from aggregated counts, and the one removing most arcs while keeping the coverage target wins
 * (ties: higher coverage, then the options tried first, i.e. larger ratios); when no combination meets
 * the target, every classifier is off. Without dev, every classifier uses `opts.ratio`.
 */
export function trainRules(
  train: readonly Sentence[],
  dev: readonly Sentence[] | undefined,
  vocab: Vocabularies,
  opts: RulesOptions,
): RulesTraining {
  const column = opts.column ?? TagMap.chooseColumn(train, vocab);
  const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);
  const c1 = opts.c1 ?? 1;
  const ratios = [...(opts.ratios ?? DEFAULT_RULE_RATIOS)].sort((x, y) => y - x);
  const problems = ruleProblems(train, vocab, tagMap, opts.prefix);
  const learn = (k: RuleClassifier, r: number): Uint8Array => {
    const w = opts.learner(problems[k], c1, c1 * r);
    return Uint8Array.from({ length: problems[k].pos.length }, (_, i) => (w[i]! > 0 ? 1 : 0));
  };
  const infoBase: RulesInfo = { c1 };
  if (dev === undefined || dev.length === 0) {
    const r = opts.ratio ?? ratios[0]!;
    const w = {} as Record<RuleClassifier, Uint8Array>;
    for (const k of RULE_CLASSIFIERS) w[k] = learn(k, r);
    const rv = Object.fromEntries(RULE_CLASSIFIERS.map((k) => [k, r])) as Record<RuleClassifier, number>;
    const pass = new PosRulesPruner(rulesFromWeights(w, tagMap), column, tagMap.tags, { ...infoBase, ratios: rv });
    return { pass, chosen: null, shared: [], frontier: [], combinations: 0 };
  }
  // Options per classifier: off, then the ratios from largest (fewest rules) to smallest.
  const options = {} as Record<RuleClassifier, Option[]>;
  for (const k of RULE_CLASSIFIERS) {
    const size = problems[k].pos.length;
    options[k] = [{ ratio: null, fire: new Uint8Array(size) }, ...ratios.map((r) => ({ ratio: r, fire: learn(k, r) }))];
  }
  const cells = devCells(TagArcCounts.collect(dev, vocab, tagMap, opts.prefix));
  const target = opts.coverage ?? DEFAULT_RULES_COVERAGE;
  const search = searchCombinations(options, cells, target);
  const best = search.best;
  const fire = {} as Record<RuleClassifier, Uint8Array>;
  for (const k of RULE_CLASSIFIERS) fire[k] = options[k][best.choice[RULE_CLASSIFIERS.indexOf(k)]!]!.fire;
  const pass = new PosRulesPruner(rulesFromWeights(fire, tagMap), column, tagMap.tags, {
    ...infoBase,
    ratios: best.point.ratios,
    target,
    devCoverage: round4(best.point.coverage),
    devReduction: round4(best.point.reduction),
  });
  return {
    pass,
    chosen: best.point,
    shared: search.shared,
    frontier: search.frontier,
    combinations: search.combinations,
  };
}

/** Exhaustive search over one option per classifier, scored from aggregated dev counts. */
function searchCombinations(
  options: Record<RuleClassifier, Option[]>,
  d: DevCells,
  target: number,
): { best: { choice: number[]; point: RulesPoint }; shared: RulesPoint[]; frontier: RulesPoint[]; combinations: number } {
  const [nh, nl, nr, nroot, pr] = RULE_CLASSIFIERS.map((k) => options[k]);
  const no = nh!.length;
  // Root arcs depend on the not-a-root classifier only: score its options once.
  const rootLost = new Float64Array(nroot!.length);
  const rootRemoved = new Float64Array(nroot!.length);
  nroot!.forEach((o, i) => {
    for (let t = 0; t < d.rootAll.length; t++)
      if (o.fire[t] === 1) {
        rootLost[i] += d.rootGold[t]!;
        rootRemoved[i] += d.rootAll[t]!;
      }
  });
  const nc = d.triple.length;
  const ratiosOf = (c: number[]): Record<RuleClassifier, number | null> =>
    Object.fromEntries(RULE_CLASSIFIERS.map((k, i) => [k, options[k][c[i]!]!.ratio])) as Record<
      RuleClassifier,
      number | null
    >;
  const point = (c: number[], lost: number, removed: number): RulesPoint => ({
    ratios: ratiosOf(c),
    coverage: d.tokens === 0 ? 100 : (100 * (d.goldKept - lost)) / d.tokens,
    reduction: d.arcs === 0 ? 0 : (100 * (d.arcs - d.kept + removed)) / d.arcs,
  });
  const covOk = (lost: number) => d.tokens === 0 || 100 * (d.goldKept - lost) >= target * d.tokens - 1e-6;
  const counts = RULE_CLASSIFIERS.map((k) => options[k].length);
  const total = counts.reduce((x, y) => x * y, 1);
  // Every combination's score, indexed by its options in mixed radix (notHead slowest … pairs fastest).
  const allLost = new Float64Array(total);
  const allRemoved = new Float64Array(total);
  const code = (c: number[]) => c.reduce((x, v, i) => x * counts[i]! + v, 0);
  const decode = (x: number) => {
    const c = new Array<number>(counts.length);
    for (let i = counts.length - 1; i >= 0; i--) {
      c[i] = x % counts[i]!;
      x = Math.floor(x / counts[i]!);
    }
    return c;
  };
  let best = 0;
  const shared: RulesPoint[] = [];
  for (let a = 0; a < no; a++) {
    const fa = nh![a]!.fire;
    for (let b = 0; b < nl!.length; b++) {
      const fb = nl![b]!.fire;
      for (let c = 0; c < nr!.length; c++) {
        const fc = nr![c]!.fire;
        for (let e = 0; e < pr!.length; e++) {
          const fe = pr![e]!.fire;
          let lost = 0;
          let removed = 0;
          for (let i = 0; i < nc; i++) {
            const side = d.dir[i] === HEAD_LEFT ? fb : fc;
            if (fa[d.head[i]!] === 1 || side[d.mod[i]!] === 1 || fe[d.triple[i]!] === 1) {
              lost += d.gold[i]!;
              removed += d.all[i]!;
            }
          }
          for (let r = 0; r < nroot!.length; r++) {
            const x = code([a, b, c, r, e]);
            const l = lost + rootLost[r]!;
            const m = removed + rootRemoved[r]!;
            allLost[x] = l;
            allRemoved[x] = m;
            if (a === b && b === c && c === r && r === e) shared.push(point([a, b, c, r, e], l, m));
            // Ties: higher coverage, then the combination met first (off and larger ratios first).
            if (covOk(l) && (m > allRemoved[best]! || (m === allRemoved[best]! && l < allLost[best]!))) best = x;
          }
        }
      }
    }
  }
  // Pareto frontier: by coverage descending (lost ascending), keep the points that remove more.
  const order = Int32Array.from({ length: total }, (_, i) => i).sort(
    (x, y) => allLost[x]! - allLost[y]! || allRemoved[y]! - allRemoved[x]!,
  );
  const frontier: RulesPoint[] = [];
  let top = -1;
  for (const x of order)
    if (allRemoved[x]! > top) {
      top = allRemoved[x]!;
      frontier.push(point(decode(x), allLost[x]!, allRemoved[x]!));
    }
  const bestChoice = decode(best);
  const bestLost = allLost[best]!;
  const bestRemoved = allRemoved[best]!;
  const combinations = total;
  return {
    best: { choice: bestChoice, point: point(bestChoice, bestLost, bestRemoved) },
    shared,
    frontier,
    combinations,
  };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
