import type { TaggedSentence } from "../src/tagger/tagged-sentence.js";
import { Rng } from "../src/util/rng.js";

/** A toy language whose tags follow from suffixes and neighbours, so it is linearly separable. */
export function toyCorpus(sentences: number, seed: number): TaggedSentence[] {
  const rng = new Rng(seed);
  const stems = ["walk", "talk", "jump", "read", "paint", "sing", "cook", "clean", "play", "build"];
  const out: TaggedSentence[] = [];
  for (let s = 0; s < sentences; s++) {
    const words: string[] = [];
    const upos: string[] = [];
    const xpos: string[] = [];
    const add = (w: string, u: string, x: string) => {
      words.push(w);
      upos.push(u);
      xpos.push(x);
    };
    const stem = () => stems[rng.int(stems.length)]! + (rng.int(3) === 0 ? "er" : "");
    add(rng.int(2) === 0 ? "the" : "a", "DET", "DT");
    add(stem() + "ers", "NOUN", "NNS");
    add(stem() + (rng.int(2) === 0 ? "ed" : "s"), "VERB", rng.int(2) === 0 ? "VBD" : "VBZ");
    if (rng.int(2) === 0) add(stem() + "ingly", "ADV", "RB");
    add(String(rng.int(1000)), "NUM", "CD");
    add(".", "PUNCT", ".");
    out.push({ words, upos, xpos });
  }
  // The XPOS of a verb follows from its suffix; fix the sampled tags accordingly.
  for (const s of out)
    for (let i = 0; i < s.words.length; i++)
      if (s.upos[i] === "VERB") s.xpos[i] = s.words[i]!.endsWith("ed") ? "VBD" : "VBZ";
  return out;
}
