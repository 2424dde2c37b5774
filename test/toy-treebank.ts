import { Rng } from "../src/util/rng.js";

const LEX: Record<string, string[]> = {
  DET: ["the", "a", "this", "every"],
  ADJ: ["big", "red", "old", "happy", "quick"],
  NOUN: ["dog", "cat", "man", "house", "idea", "car", "tree", "book"],
  VERB: ["saw", "liked", "found", "took", "sold"],
  VERBI: ["slept", "ran", "laughed"],
  ADP: ["in", "near", "with", "under"],
  ADV: ["quickly", "today", "again"],
};
const XPOS: Record<string, string> = {
  DET: "DT",
  ADJ: "JJ",
  NOUN: "NN",
  VERB: "VBD",
  ADP: "IN",
  ADV: "RB",
  PUNCT: ".",
  PROPN: "NNP",
};

interface Word {
  form: string;
  upos: string;
  head: number;
  rel: string;
}

/**
 * Generates a synthetic, deterministic CoNLL-U treebank from a toy English grammar (NP VP with
 * determiners, adjectives, prepositional phrases, adverbs and final punctuation), so parser tests
 * run on a fresh clone without ../shared. Attachment is learnable from the features.
 */
export function toyTreebank(sentences: number, seed: number): string {
  const rng = new Rng(seed);
  const pick = (a: string[]) => a[rng.int(a.length)]!;
  let out = "";
  for (let s = 0; s < sentences; s++) {
    const words: Word[] = [];
    // Returns the index (1-based) of the NP's head noun; the caller sets its head/rel.
    const np = (): number => {
      const start = words.length;
      if (rng.next() < 0.8) words.push({ form: pick(LEX.DET!), upos: "DET", head: -1, rel: "det" });
      const adjs = rng.int(3);
      for (let i = 0; i < adjs; i++) words.push({ form: pick(LEX.ADJ!), upos: "ADJ", head: -1, rel: "amod" });
      words.push({ form: pick(LEX.NOUN!), upos: "NOUN", head: 0, rel: "" });
      const noun = words.length;
      for (let i = start; i < noun - 1; i++) words[i]!.head = noun;
      return noun;
    };
    const pp = (attach: number, rel: string) => {
      words.push({ form: pick(LEX.ADP!), upos: "ADP", head: -1, rel: "case" });
      const adp = words.length;
      const n = np();
      words[adp - 1]!.head = n;
      words[n - 1]!.head = attach;
      words[n - 1]!.rel = rel;
    };
    const subj = np();
    if (rng.next() < 0.3) pp(subj, "nmod");
    const transitive = rng.next() < 0.7;
    words.push({ form: pick(transitive ? LEX.VERB! : LEX.VERBI!), upos: "VERB", head: 0, rel: "root" });
    const verb = words.length;
    words[subj - 1]!.head = verb;
    words[subj - 1]!.rel = "nsubj";
    if (transitive) {
      const obj = np();
      words[obj - 1]!.head = verb;
      words[obj - 1]!.rel = "obj";
    }
    if (rng.next() < 0.4) pp(verb, "obl");
    if (rng.next() < 0.3) words.push({ form: pick(LEX.ADV!), upos: "ADV", head: verb, rel: "advmod" });
    if (rng.next() < 0.8) words.push({ form: ".", upos: "PUNCT", head: verb, rel: "punct" });
    out += `# sent_id = toy-${s + 1}\n# text = ${words.map((w) => w.form).join(" ")}\n`;
    words.forEach((w, i) => {
      out += `${i + 1}\t${w.form}\t${w.form}\t${w.upos}\t${XPOS[w.upos]}\t_\t${w.head}\t${w.rel}\t_\t_\n`;
    });
    out += "\n";
  }
  return out;
}
