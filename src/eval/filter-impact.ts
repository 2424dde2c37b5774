import type { Sentence } from "../corpus/sentence.js";
import type { Vocabularies } from "../corpus/vocab.js";
import type { DependencyParser } from "../parser/types.js";
import type { PruningCascade } from "../prune/cascade.js";

/**
 * What a filter does to one parser's attachments (punctuation excluded, as UAS-P counts): the same
 * sentences parsed exhaustively and behind the filter. Gold arcs a filter removes cost the parser
 * only where it would have attached them correctly; removing wrong arcs can also fix attachments.
 */
export interface FilterImpact {
  /** Words scored (not punctuation). */
  tokens: number;
  /** Words attached correctly by the exhaustive parse. */
  rightUnfiltered: number;
  /** Words attached correctly behind the filter. */
  rightFiltered: number;
  /** Gold arcs the filter removed that the exhaustive parse had chosen (each such word is broken). */
  lostParserRight: number;
  /** Words wrong exhaustively and right behind the filter. */
  fixed: number;
  /** Words right exhaustively and wrong behind the filter. */
  broken: number;
  /** Per sentence: right exhaustively, right behind the filter, words scored (for a paired bootstrap). */
  perSentence: { unfiltered: Int32Array; filtered: Int32Array; total: Int32Array };
}

/**
 * Parses every sentence twice with `parser`, exhaustively (no mask, whatever cascade the parser
 * carries) and under the mask `cascade` leaves, and counts how the attachments of the words whose
 * UPOS id is not `punctUpos` change.
 */
export function filterImpact(
  parser: DependencyParser,
  cascade: PruningCascade,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
  punctUpos: number,
): FilterImpact {
  const unfiltered = new Int32Array(sentences.length);
  const filtered = new Int32Array(sentences.length);
  const total = new Int32Array(sentences.length);
  let lostParserRight = 0;
  let fixed = 0;
  let broken = 0;
  sentences.forEach((s, i) => {
    const mask = cascade.maskFor(s, vocab);
    const a = parser.parse(s, vocab, null).heads;
    const b = parser.parse(s, vocab, mask).heads;
    for (let m = 1; m <= s.n; m++) {
      if (s.upos[m] === punctUpos) continue;
      const g = s.head[m]!;
      const ra = a[m] === g;
      const rb = b[m] === g;
      total[i]!++;
      if (ra) unfiltered[i]!++;
      if (rb) filtered[i]!++;
      if (ra && !rb) broken++;
      if (!ra && rb) fixed++;
      if (ra && mask !== null && !mask.allows(g, m)) lostParserRight++;
    }
  });
  const sum = (x: Int32Array) => x.reduce((p, v) => p + v, 0);
  return {
    tokens: sum(total),
    rightUnfiltered: sum(unfiltered),
    rightFiltered: sum(filtered),
    lostParserRight,
    fixed,
    broken,
    perSentence: { unfiltered, filtered, total },
  };
}
