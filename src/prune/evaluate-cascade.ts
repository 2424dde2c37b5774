import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { LostGoldArcs, PruningEvaluator, type PruningScores } from "../eval/pruning.js";
import { ArcMask } from "../mask/arc-mask.js";
import { CascadeStats, type PruningCascade } from "./cascade.js";

/** What a cascade did to a gold-annotated corpus. */
export interface CascadeEvaluation {
  /** Coverage (gold arcs kept), reduction and oracle bound of the final masks. */
  scores: PruningScores;
  /** Seconds spent pruning (feature atoms and every pass; no I/O, no loading). */
  seconds: number;
  /** Per-pass time and arcs kept (none when the cascade is empty). */
  stats: CascadeStats;
  /** Coverage and reduction after each pass (the last equals `scores`; empty for an empty cascade). */
  afterPass: PruningScores[];
  /** The gold arcs the final masks removed: how many, how many not punctuation, per relation. */
  lost: LostGoldArcs;
}

/**
 * Runs a cascade over sentences with gold heads and measures coverage, reduction and time, in total and
 * after each pass. The timed run does nothing but prune; coverage after each pass comes from a second,
 * untimed run.
 */
export function evaluateCascade(
  cascade: PruningCascade,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
): CascadeEvaluation {
  const total = new PruningEvaluator();
  const lost = new LostGoldArcs(vocab.upos.get("PUNCT"));
  const stats = new CascadeStats();
  let seconds = 0;
  for (const s of sentences) {
    const mask = ArcMask.full(s.n);
    const t0 = performance.now();
    cascade.prune(s, vocab, mask, stats);
    seconds += (performance.now() - t0) / 1000;
    total.add(mask, s.head);
    lost.add(mask, s.head, s.deprel, s.upos);
  }
  const per = cascade.passes.map(() => new PruningEvaluator());
  for (const s of sentences)
    cascade.prune(s, vocab, ArcMask.full(s.n), undefined, (i, m) => per[i]!.add(m, s.head));
  const afterPass = per.map((e) => e.scores());
  afterPass.forEach((a, i) => {
    const st = stats.passes[i];
    if (st !== undefined) st.kept = a.kept;
  });
  return { scores: total.scores(), seconds, stats, afterPass, lost };
}
