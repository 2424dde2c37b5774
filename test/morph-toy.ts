import { Rng } from "../src/util/rng.js";

const STEMS = [
  "walk",
  "jump",
  "paint",
  "talk",
  "look",
  "call",
  "play",
  "work",
  "kick",
  "pull",
  "push",
  "mark",
  "cook",
  "open",
  "clean",
  "climb",
  "order",
  "point",
  "visit",
  "wash",
];
const NOUNS = [
  "cat",
  "dog",
  "tree",
  "house",
  "car",
  "bird",
  "road",
  "lamp",
  "boat",
  "chair",
  "table",
  "hill",
  "river",
  "stone",
  "apple",
  "book",
  "pen",
  "door",
  "wall",
  "field",
  "city",
  "baby",
  "lady",
  "party",
];

/**
 * A synthetic CoNLL-U treebank with regular English-like inflection (plural nouns in -s / -ies,
 * verbs in -s / -ed / -ing, a capitalized first word) and the matching LEMMA and FEATS. Words
 * of index ≥ `known` in each stem list appear only when `heldOut` is true.
 */
export function morphToy(sentences: number, seed: number, heldOut = false, known = 14): string {
  const rng = new Rng(seed);
  const pick = (a: string[]) => {
    const lim = heldOut ? a.length : Math.min(known, a.length);
    const lo = heldOut ? Math.min(known, a.length - 1) : 0;
    return a[lo + rng.int(lim - lo)]!;
  };
  let out = "";
  for (let s = 0; s < sentences; s++) {
    const words: [string, string, string, string, string][] = [];
    const noun = pick(NOUNS);
    const plural = rng.next() < 0.5;
    words.push([
      plural ? "the" : rng.next() < 0.5 ? "the" : "a",
      plural || rng.next() < 0.5 ? "the" : "a",
      "DET",
      "DT",
      "Definite=Def",
    ]);
    words[0]![1] = words[0]![0];
    words[0]![4] = words[0]![0] === "a" ? "Definite=Ind" : "Definite=Def";
    const nform = plural ? (noun.endsWith("y") ? noun.slice(0, -1) + "ies" : noun + "s") : noun;
    words.push([nform, noun, "NOUN", plural ? "NNS" : "NN", plural ? "Number=Plur" : "Number=Sing"]);
    const v = pick(STEMS);
    const t = rng.int(3);
    if (t === 0)
      words.push([
        plural ? v : v + "s",
        v,
        "VERB",
        plural ? "VBP" : "VBZ",
        plural ? "Mood=Ind|Tense=Pres|VerbForm=Fin" : "Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin",
      ]);
    else if (t === 1) words.push([v + "ed", v, "VERB", "VBD", "Mood=Ind|Tense=Past|VerbForm=Fin"]);
    else {
      words.push([
        plural ? "are" : "is",
        "be",
        "AUX",
        plural ? "VBP" : "VBZ",
        plural ? "Mood=Ind|Tense=Pres|VerbForm=Fin" : "Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin",
      ]);
      words.push([v + "ing", v, "VERB", "VBG", "VerbForm=Ger"]);
    }
    words.push([".", ".", "PUNCT", ".", "_"]);
    const first = words[0]!;
    first[0] = first[0].charAt(0).toUpperCase() + first[0].slice(1);
    out += `# sent_id = m${s + 1}\n`;
    const root = words.findIndex((w) => w[2] === "VERB") + 1;
    words.forEach((w, i) => {
      const head = i + 1 === root ? 0 : root;
      out += `${i + 1}\t${w[0]}\t${w[1]}\t${w[2]}\t${w[3]}\t${w[4]}\t${head}\t${head === 0 ? "root" : "dep"}\t_\t_\n`;
    });
    out += "\n";
  }
  return out;
}
