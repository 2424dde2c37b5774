import { Rng } from "../src/util/rng.js";

/**
 * A toy written language for the learned tokenizer, as CoNLL-U with `# text` and SpaceAfter=No:
 * sentences of 3–9 lowercase words, the first capitalised, ending in an attached "." or "!";
 * commas attached to the word before; the abbreviation "bzw." (one token, period included) which
 * never ends a sentence; the clitic "'s" written onto a verb ("geht's" = "geht" + "'s", two
 * tokens); the multiword token "zum" = "zu" + "dem" (one surface token of two words),
 * capitalised at a sentence's start; and nouns with the particle "li" written onto them, spelled
 * out ("hausli" = "haus" + "li"), except the noun `noLi`. Paragraphs of 2–5 sentences (`# newpar`).
 */
export function tokenizerToy(sentences: number, seed: number, noLi = ""): string {
  const rng = new Rng(seed);
  const nouns = ["haus", "baum", "katze", "stadt", "weg", "brot", "lampe", "fluss", "wald", "tisch"];
  const verbs = ["geht", "steht", "liegt", "kommt", "bleibt"];
  const others = ["und", "oder", "sehr", "nicht", "hier", "dort", "alt", "neu", "klein"];
  type Tok = { form: string; words: string[]; spaceAfter: boolean };
  const out: string[] = [];
  let inPar = 0;
  for (let s = 0; s < sentences; s++) {
    const toks: Tok[] = [];
    const len = 3 + rng.int(7);
    for (let i = 0; i < len; i++) {
      const r = rng.next();
      if (r < 0.12) toks.push({ form: "zum", words: ["zu", "dem"], spaceAfter: true });
      else if (r < 0.2) toks.push({ form: "bzw.", words: ["bzw."], spaceAfter: true });
      else if (r < 0.32) {
        const v = verbs[rng.int(verbs.length)]!;
        if (rng.next() < 0.4) {
          toks.push({ form: v, words: [v], spaceAfter: false });
          toks.push({ form: "'s", words: ["'s"], spaceAfter: true });
        } else toks.push({ form: v, words: [v], spaceAfter: true });
      } else if (r < 0.7) {
        const n = nouns[rng.int(nouns.length)]!;
        if (n !== noLi && rng.next() < 0.2) toks.push({ form: `${n}li`, words: [n, "li"], spaceAfter: true });
        else toks.push({ form: n, words: [n], spaceAfter: true });
      } else {
        const o = others[rng.int(others.length)]!;
        toks.push({ form: o, words: [o], spaceAfter: true });
      }
      if (i < len - 1 && rng.next() < 0.15) {
        toks[toks.length - 1]!.spaceAfter = false;
        toks.push({ form: ",", words: [","], spaceAfter: true });
      }
    }
    toks[toks.length - 1]!.spaceAfter = false;
    toks.push({ form: rng.next() < 0.8 ? "." : "!", words: [], spaceAfter: true });
    const end = toks[toks.length - 1]!;
    end.words = [end.form];
    // Capitalise the first token (and its first word).
    const first = toks[0]!;
    first.form = first.form.charAt(0).toUpperCase() + first.form.slice(1);
    first.words = [
      first.words[0]!.charAt(0).toUpperCase() + first.words[0]!.slice(1),
      ...first.words.slice(1),
    ];
    const lines: string[] = [];
    if (inPar === 0) {
      lines.push("# newpar");
      inPar = 2 + rng.int(4);
    }
    inPar--;
    lines.push(`# sent_id = t${seed}-${s + 1}`);
    lines.push(
      `# text = ${toks.map((t, i) => t.form + (t.spaceAfter && i < toks.length - 1 ? " " : "")).join("")}`,
    );
    // A chain: word 1 is the root, every other word depends on the one before.
    const word = (k: number, form: string, misc: string) =>
      `${k}\t${form}\t_\tX\t_\t_\t${k - 1}\t${k === 1 ? "root" : "dep"}\t_\t${misc}`;
    let id = 1;
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i]!;
      const misc = t.spaceAfter || i === toks.length - 1 ? "_" : "SpaceAfter=No";
      if (t.words.length > 1) {
        lines.push(`${id}-${id + t.words.length - 1}\t${t.form}\t_\t_\t_\t_\t_\t_\t_\t${misc}`);
        for (const w of t.words) lines.push(word(id++, w, "_"));
      } else lines.push(word(id++, t.form, misc));
    }
    out.push(lines.join("\n") + "\n");
  }
  return out.join("\n") + "\n";
}
