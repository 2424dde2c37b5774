import type { TaggedSentence } from "./tagged-sentence.js";

/** Tagging accuracy in percent over all tokens. */
export interface TagAccuracy {
  tokens: number;
  upos: number;
  xpos: number;
  /** Both UPOS and XPOS right. */
  both: number;
}

/** Compares predicted tags with gold tags sentence by sentence (same tokenization required). */
export function tagAccuracy(
  gold: readonly TaggedSentence[],
  pred: readonly { upos: readonly string[]; xpos: readonly string[] }[],
): TagAccuracy {
  let tokens = 0;
  let u = 0;
  let x = 0;
  let b = 0;
  for (let s = 0; s < gold.length; s++) {
    const g = gold[s]!;
    const p = pred[s]!;
    if (p.upos.length !== g.words.length) throw new Error(`sentence ${s}: token counts differ`);
    for (let i = 0; i < g.words.length; i++) {
      const uo = g.upos[i] === p.upos[i];
      const xo = g.xpos[i] === p.xpos[i];
      tokens++;
      if (uo) u++;
      if (xo) x++;
      if (uo && xo) b++;
    }
  }
  const pct = (c: number) => (tokens === 0 ? 0 : (100 * c) / tokens);
  return { tokens, upos: pct(u), xpos: pct(x), both: pct(b) };
}
