import type { ArcMask } from "../mask/arc-mask.js";
import { percent } from "./percent.js";

/** Raw counts behind the pruning scores. */
export interface PruningCounts {
  sentences: number;
  tokens: number;
  /** Every possible arc: n heads (root included, self excluded) for each of n tokens, i.e. Σ n². */
  arcs: number;
  /** Arcs the masks allow. */
  kept: number;
  /** Gold arcs the masks allow. */
  goldKept: number;
  /** Sentences whose every gold arc is allowed. */
  sentencesAllKept: number;
}

/** Pruning quality of arc masks against gold trees (percentages in 0..100). */
export interface PruningScores extends PruningCounts {
  /** % of gold arcs kept. */
  coverage: number;
  /** % of all possible arcs removed. */
  reduction: number;
  /** Best reduction any filter keeping every gold arc can reach: 100 · (1 − Σn / Σn²). */
  oracleReduction: number;
  /** % of sentences with every gold arc kept. */
  sentenceCoverage: number;
  /** Mean number of allowed heads per token (n for no pruning, 1 for the oracle). */
  headsPerToken: number;
}

/** Accumulates coverage and reduction of arc masks over a corpus, one sentence at a time. */
export class PruningEvaluator {
  private c: PruningCounts = { sentences: 0, tokens: 0, arcs: 0, kept: 0, goldKept: 0, sentencesAllKept: 0 };

  /** Adds one sentence: its mask and gold heads (goldHeads[m] for m = 1..n; index 0 ignored). */
  add(mask: ArcMask, goldHeads: ArrayLike<number>): void {
    const n = mask.n;
    if (goldHeads.length < n + 1) {
      throw new Error(
        `PruningEvaluator.add: mask has ${n} tokens but only ${goldHeads.length - 1} gold heads`,
      );
    }
    const bits = mask.bits;
    const size = mask.size;
    let kept = 0;
    let goldKept = 0;
    for (let m = 1; m <= n; m++) {
      for (let h = 0; h <= n; h++) if (h !== m) kept += bits[h * size + m]!;
      goldKept += bits[goldHeads[m]! * size + m]!;
    }
    const c = this.c;
    c.sentences++;
    c.tokens += n;
    c.arcs += n * n;
    c.kept += kept;
    c.goldKept += goldKept;
    if (goldKept === n) c.sentencesAllKept++;
  }

  /** Adds the counts of another evaluator. */
  merge(other: PruningEvaluator): this {
    const o = other.counts;
    for (const k of Object.keys(this.c) as (keyof PruningCounts)[]) this.c[k] += o[k];
    return this;
  }

  /** Forgets everything added so far. */
  reset(): void {
    this.c = { sentences: 0, tokens: 0, arcs: 0, kept: 0, goldKept: 0, sentencesAllKept: 0 };
  }

  /** A copy of the raw counts. */
  get counts(): PruningCounts {
    return { ...this.c };
  }

  /** The scores so far (0 for an empty denominator). */
  scores(): PruningScores {
    const c = this.c;
    return {
      ...c,
      coverage: percent(c.goldKept, c.tokens),
      reduction: c.arcs === 0 ? 0 : 100 - percent(c.kept, c.arcs),
      oracleReduction: oracleReduction(c.tokens, c.arcs),
      sentenceCoverage: percent(c.sentencesAllKept, c.sentences),
      headsPerToken: c.tokens === 0 ? 0 : c.kept / c.tokens,
    };
  }
}

/** Oracle reduction bound in percent from Σn (tokens) and Σn² (arcs): 100 · (1 − tokens / arcs). */
export function oracleReduction(tokens: number, arcs: number): number {
  return arcs === 0 ? 0 : 100 * (1 - tokens / arcs);
}

/** Gold arcs of one relation: how many there are and how many the masks removed. */
export interface RelationLoss {
  gold: number;
  lost: number;
}

/**
 * Which gold arcs arc masks remove: in total, those of non-punctuation tokens (the ones UAS-P
 * counts), and per gold relation of the modifier. Tells filters of equal coverage apart by what
 * they lose.
 */
export class LostGoldArcs {
  /** Gold arcs seen and removed. */
  gold = 0;
  lost = 0;
  /** The same for tokens whose UPOS is not punctuation. */
  goldNoPunct = 0;
  lostNoPunct = 0;
  /** Per gold relation id (the sentences' deprel ids). */
  readonly byRelation = new Map<number, RelationLoss>();

  constructor(
    /** UPOS id of punctuation in the sentences' vocabulary (-1: none). */
    readonly punctUpos: number,
  ) {}

  /** Adds one sentence: the mask its arcs went through and its gold heads, relations and UPOS. */
  add(mask: ArcMask, head: ArrayLike<number>, deprel: ArrayLike<number>, upos: ArrayLike<number>): void {
    const n = mask.n;
    if (head.length < n + 1 || deprel.length < n + 1 || upos.length < n + 1)
      throw new Error(`LostGoldArcs.add: mask has ${n} tokens but the gold arrays are shorter`);
    for (let m = 1; m <= n; m++) {
      const lost = mask.allows(head[m]!, m) ? 0 : 1;
      this.gold++;
      this.lost += lost;
      if (upos[m] !== this.punctUpos) {
        this.goldNoPunct++;
        this.lostNoPunct += lost;
      }
      const r = deprel[m]!;
      const e = this.byRelation.get(r);
      if (e === undefined) this.byRelation.set(r, { gold: 1, lost });
      else {
        e.gold++;
        e.lost += lost;
      }
    }
  }

  /** Relations with at least one lost arc, most lost first (ties: more gold arcs first, then id). */
  mostLost(): { relation: number; gold: number; lost: number }[] {
    return [...this.byRelation]
      .filter(([, e]) => e.lost > 0)
      .map(([relation, e]) => ({ relation, ...e }))
      .sort((a, b) => b.lost - a.lost || b.gold - a.gold || a.relation - b.relation);
  }
}
