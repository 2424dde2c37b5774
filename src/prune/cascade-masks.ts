import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { ArcMask } from "../mask/arc-mask.js";
import type { PruningCascade } from "./cascade.js";

/** The mask a cascade leaves on each sentence (full masks for an empty cascade): what later passes train on. */
export function cascadeMasks(
  cascade: PruningCascade,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
): ArcMask[] {
  return sentences.map((s) => cascade.prune(s, vocab, ArcMask.full(s.n)));
}

/** Gold arcs and all arcs the masks keep, over sentences with gold heads. */
export function maskTotals(
  masks: readonly ArcMask[],
  sentences: readonly Sentence[],
): { arcs: number; kept: number; gold: number; goldKept: number } {
  let arcs = 0;
  let kept = 0;
  let gold = 0;
  let goldKept = 0;
  sentences.forEach((s, k) => {
    const mask = masks[k]!;
    arcs += s.n * s.n;
    kept += mask.count();
    gold += s.n;
    for (let m = 1; m <= s.n; m++) goldKept += mask.bits[s.head[m]! * mask.size + m]!;
  });
  return { arcs, kept, gold, goldKept };
}
