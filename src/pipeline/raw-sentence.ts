import type { ConlluSentence } from "../conllu/types.js";
import type { TokenizedSentence } from "./sentence-split.js";

/**
 * Turns a tokenized sentence of raw text into a CoNLL-U block with `# sent_id` and `# text`
 * comments, multiword-token range rows where a surface token holds several words, and
 * `SpaceAfter=No` in MISC (on the range row for multiword tokens). Tags and heads are "_".
 */
export function rawToConllu(
  text: string,
  s: TokenizedSentence,
  sentId: string,
  file = "<text>",
): ConlluSentence {
  const lines: string[] = [
    `# sent_id = ${sentId}`,
    `# text = ${text
      .slice(s.start, s.end)
      .replace(/[\s\p{Cc}]+/gu, " ")
      .trim()}`,
  ];
  const words: string[][] = [];
  const wordLine: number[] = [];
  for (const t of s.tokens) {
    const last = t.lastWord;
    const spaceAfter = s.words[last]!.spaceAfter;
    if (last > t.firstWord) {
      const form = text.slice(t.start, t.end);
      lines.push(
        `${t.firstWord + 1}-${last + 1}\t${form}\t_\t_\t_\t_\t_\t_\t_\t${spaceAfter ? "_" : "SpaceAfter=No"}`,
      );
    }
    for (let w = t.firstWord; w <= last; w++) {
      const misc = last === t.firstWord && !spaceAfter ? "SpaceAfter=No" : "_";
      const cols = [String(w + 1), s.words[w]!.form, "_", "_", "_", "_", "_", "_", "_", misc];
      wordLine.push(lines.length);
      words.push(cols);
      lines.push(cols.join("\t"));
    }
  }
  return { lines, words, wordLine, file, startLine: 0 };
}
