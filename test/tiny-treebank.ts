import { parseConllu } from "../src/conllu/read.js";
import { type Sentence, toSentence } from "../src/corpus/sentence.js";
import type { Vocabularies } from "../src/corpus/vocab.js";
import { Rng } from "../src/util/rng.js";

/**
 * CoNLL-U for hand-written trees: each sentence is "TAG:HEAD TAG:HEAD …" (1-based heads, 0 = root);
 * the tag is both UPOS and XPOS and the word form is the lower-cased tag.
 */
export function tinyConllu(sentences: readonly string[]): string {
  let out = "";
  sentences.forEach((s, i) => {
    out += `# sent_id = tiny-${i + 1}\n`;
    s.trim()
      .split(/\s+/)
      .forEach((tok, j) => {
        const at = tok.lastIndexOf(":");
        const tag = tok.slice(0, at);
        const head = tok.slice(at + 1);
        out += `${j + 1}\t${tag.toLowerCase()}\t_\t${tag}\t${tag}\t_\t${head}\tdep\t_\t_\n`;
      });
    out += "\n";
  });
  return out;
}

/** The sentences of CoNLL-U text, interned in `vocab`. */
export function sentencesOf(text: string, vocab: Vocabularies): Sentence[] {
  return [...parseConllu(text)].map((r) => toSentence(r, vocab));
}

/** `tinyConllu` sentences interned in `vocab`. */
export function tinySentences(sentences: readonly string[], vocab: Vocabularies): Sentence[] {
  return sentencesOf(tinyConllu(sentences), vocab);
}

/**
 * CoNLL-U text with tagging noise: each token's UPOS and XPOS are replaced, with probability `rate`,
 * by another token's tags drawn from the same text (deterministic per seed), as predicted tags would be.
 */
export function noisyTags(text: string, rate: number, seed: number): string {
  const rng = new Rng(seed);
  const lines = text.split("\n");
  const tags: [string, string][] = [];
  for (const l of lines) {
    const c = l.split("\t");
    if (c.length === 10) tags.push([c[3]!, c[4]!]);
  }
  return lines
    .map((l) => {
      const c = l.split("\t");
      if (c.length !== 10 || rng.next() >= rate) return l;
      const [u, x] = tags[rng.int(tags.length)]!;
      c[3] = u;
      c[4] = x;
      return c.join("\t");
    })
    .join("\n");
}
