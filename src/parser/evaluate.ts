import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import { type AttachmentScores, AttachmentEvaluator } from "../eval/attachment.js";
import type { PruningCascade } from "../prune/cascade.js";
import { parseBlock } from "./pruned-parse.js";
import type { DependencyParser } from "./types.js";

/**
 * Parses gold sentences with any parser, pruned by `cascade` (default: the parser's own), and scores
 * the result (punctuation = UPOS "PUNCT").
 */
export function evaluateParser(
  parser: DependencyParser,
  sentences: Sentence[],
  vocab: Vocabularies,
  cascade: PruningCascade = parser.cascade,
): AttachmentScores {
  const ev = new AttachmentEvaluator({ punctUpos: vocab.upos.get("PUNCT") });
  const ids = new Int32Array(parser.labels.length);
  for (let l = 0; l < ids.length; l++) ids[l] = vocab.deprel.add(parser.labels[l]!);
  const results = parseBlock(parser, sentences, vocab, cascade);
  sentences.forEach((s, i) => {
    const r = results[i]!;
    const rel = new Int32Array(s.n + 1);
    for (let m = 1; m <= s.n; m++) rel[m] = ids[r.labels[m]!]!;
    ev.addSentence(s, r.heads, rel);
  });
  return ev.scores();
}

/** Model selection over training epochs: keeps the parser with the best dev UAS (no punct), LAS breaking ties. */
export class BestEpoch<P> {
  /** The kept parser (the last one offered when there is no dev data). */
  parser: P | null = null;
  /** Its epoch (1-based; 0 before any). */
  epoch = 0;
  private key = -1;

  /** Offers the parser of an epoch with its dev scores (null = no dev data: always keep the latest). */
  offer(epoch: number, parser: P, dev: AttachmentScores | null): void {
    const key = dev === null ? Number.POSITIVE_INFINITY : dev.uasNoPunct * 1000 + dev.lasNoPunct;
    if (dev === null || key > this.key) {
      this.key = dev === null ? -1 : key;
      this.parser = parser;
      this.epoch = epoch;
    }
  }
}
