import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { PruningEvaluator } from "../eval/pruning.js";
import { round } from "../eval/percent.js";
import { ArcMask } from "../mask/arc-mask.js";
import { PruningCascade } from "./cascade.js";
import {
  applyRoles,
  decideRoles,
  NUM_ROLES,
  ROLE,
  ROLE_NAMES,
  ROLE_PAPER_NAMES,
  roleActive,
  roleLabels,
  type RoleName,
} from "./token-role-decisions.js";
import type { TokenRoleFilter } from "./token-role-filter.js";

/** Precision and recall of one token-role decision (Bergsma & Cherry 2010, Table 5). */
export interface RoleDecisionQuality {
  /** The decision. */
  decision: RoleName;
  /** Its name in the paper. */
  paperName: string;
  /** Tokens where the decision could remove an arc after the prefix (for root: tokens whose root arc survives). */
  active: number;
  /** Of those, tokens for which it holds (gold). */
  actual: number;
  /** Tokens where it fired (for root: at most one per sentence). */
  predicted: number;
  /** Tokens where it fired and holds. */
  correct: number;
  /** correct / predicted, in % (100 when it never fired). */
  precision: number;
  /** correct / actual, in %. */
  recall: number;
}

/**
 * Precision and recall of each decision of a token-role filter at its operating point, counted over
 * the tokens where the decision has something to remove after `prefix` (the tokens it is trained and
 * tuned on; for root, the tokens whose root arc survives).
 */
export function roleDecisionQuality(
  filter: TokenRoleFilter,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade = new PruningCascade(),
): RoleDecisionQuality[] {
  const active = new Float64Array(NUM_ROLES);
  const actual = new Float64Array(NUM_ROLES);
  const predicted = new Float64Array(NUM_ROLES);
  const correct = new Float64Array(NUM_ROLES);
  let labels = new Uint8Array(0);
  let positive = new Uint8Array(0);
  let deps = new Int32Array(0);
  for (const s of sentences) {
    const n = s.n;
    if (labels.length < (n + 1) * NUM_ROLES) {
      labels = new Uint8Array((n + 1) * NUM_ROLES * 2);
      positive = new Uint8Array(labels.length);
      deps = new Int32Array((n + 1) * 2);
    }
    const mask = prefix.prune(s, vocab, ArcMask.full(n));
    const scores = filter.scoreAll(prefix.prepare(s, vocab));
    const root = decideRoles(scores, filter.thresholds, mask, positive);
    roleLabels(s.head, n, deps, labels);
    for (let i = 1; i <= n; i++) {
      const o = i * NUM_ROLES;
      for (let d = 0; d < NUM_ROLES; d++) {
        if (!roleActive(mask, d, i)) continue;
        const fired = d === ROLE.root ? i === root : positive[o + d] === 1;
        const holds = labels[o + d] === 1;
        active[d]!++;
        if (holds) actual[d]!++;
        if (fired) predicted[d]!++;
        if (fired && holds) correct[d]!++;
      }
    }
  }
  return ROLE_NAMES.map((decision, d) => ({
    decision,
    paperName: ROLE_PAPER_NAMES[d]!,
    active: active[d]!,
    actual: actual[d]!,
    predicted: predicted[d]!,
    correct: correct[d]!,
    precision: predicted[d]! > 0 ? round((100 * correct[d]!) / predicted[d]!) : 100,
    recall: actual[d]! > 0 ? round((100 * correct[d]!) / actual[d]!) : 0,
  }));
}

/** One row of the leave-one-out ablation (Bergsma & Cherry 2010, Table 6). */
export interface RoleAblationRow {
  /** "All", or "All \ X" with X the paper's name of the dropped decision. */
  name: string;
  /** The dropped decision (null for "All"). */
  dropped: RoleName | null;
  /** Coverage and reduction (%) of prefix + filter with that decision off. */
  coverage: number;
  reduction: number;
  /** Coverage and reduction (%) of prefix + perfect decisions (gold labels) for the same set of decisions. */
  oracleCoverage: number;
  oracleReduction: number;
}

/**
 * The leave-one-out ablation of a token-role filter on gold-annotated sentences: coverage and
 * reduction of `prefix` + the filter with every decision, then with each decision switched off (the
 * others keep their operating points), each beside the oracle: the same decisions made perfectly
 * (every gold-true decision fires; the root is the gold root when its arc survives): the oracle
 * always uses all eight decisions but the dropped one, whatever the filter's operating points.
 */
export function roleAblation(
  filter: TokenRoleFilter,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
  prefix: PruningCascade = new PruningCascade(),
): RoleAblationRow[] {
  const variants = [-1, ...ROLE_NAMES.map((_, d) => d)];
  const real = variants.map(() => new PruningEvaluator());
  const oracle = variants.map(() => new PruningEvaluator());
  const thr = new Float64Array(NUM_ROLES);
  let labels = new Uint8Array(0);
  let positive = new Uint8Array(0);
  let deps = new Int32Array(0);
  for (const s of sentences) {
    const n = s.n;
    if (labels.length < (n + 1) * NUM_ROLES) {
      labels = new Uint8Array((n + 1) * NUM_ROLES * 2);
      positive = new Uint8Array(labels.length);
      deps = new Int32Array((n + 1) * 2);
    }
    const base = prefix.prune(s, vocab, ArcMask.full(n));
    const scores = filter.scoreAll(prefix.prepare(s, vocab));
    roleLabels(s.head, n, deps, labels);
    let goldRoot = -1;
    for (let i = 1; i <= n; i++) if (s.head[i] === 0 && base.bits[i] === 1 && goldRoot < 0) goldRoot = i;
    variants.forEach((drop, v) => {
      thr.set(filter.thresholds);
      if (drop >= 0) thr[drop] = Number.POSITIVE_INFINITY;
      const mask = base.clone();
      const root = decideRoles(scores, thr, mask, positive);
      applyRoles(mask, positive, root, filter.crossRoot);
      real[v]!.add(mask, s.head);
      const om = base.clone();
      for (let i = 1; i <= n; i++)
        for (let d = 0; d < ROLE.root; d++) {
          const o = i * NUM_ROLES + d;
          positive[o] = d !== drop && labels[o] === 1 ? 1 : 0;
        }
      const oRoot = drop !== ROLE.root ? goldRoot : -1;
      applyRoles(om, positive, oRoot, filter.crossRoot);
      oracle[v]!.add(om, s.head);
    });
  }
  return variants.map((drop, v) => {
    const r = real[v]!.scores();
    const o = oracle[v]!.scores();
    return {
      name: drop < 0 ? "All" : `All \\ ${ROLE_PAPER_NAMES[drop]}`,
      dropped: drop < 0 ? null : ROLE_NAMES[drop]!,
      coverage: round(r.coverage),
      reduction: round(r.reduction),
      oracleCoverage: round(o.coverage),
      oracleReduction: round(o.reduction),
    };
  });
}
