/** The part-of-speech tags of one sentence: UPOS and XPOS per word (same length). */
export interface SentenceTags {
  upos: string[];
  xpos: string[];
}

/**
 * The unordered name of a UPOS confusion, e.g. "NOUN/VERB" for gold VERB tagged NOUN and for gold
 * NOUN tagged VERB (the two tags in code-point order); "" when the tags agree.
 */
export function uposConfusion(gold: string, predicted: string): string {
  if (gold === predicted) return "";
  return gold < predicted ? `${gold}/${predicted}` : `${predicted}/${gold}`;
}

/** Predicted tags with some errors repaired, and how many tokens were changed. */
export interface RepairedTags {
  tags: SentenceTags[];
  repaired: number;
}

/**
 * A copy of the predicted tags in which the tokens that `select(sentence, word)` picks get their
 * gold UPOS (and, if `xpos` is true, their gold XPOS) back. `repaired` counts the tokens whose tags
 * actually changed. Used to measure what each kind of tagging error costs a parser: parse with the
 * repaired tags and compare with the parse of the predicted tags.
 */
export function repairTags(
  gold: readonly SentenceTags[],
  predicted: readonly SentenceTags[],
  select: (sentence: number, word: number) => boolean,
  opts: { upos?: boolean; xpos?: boolean } = {},
): RepairedTags {
  if (gold.length !== predicted.length) {
    throw new RangeError(`${gold.length} gold sentences but ${predicted.length} predicted`);
  }
  const fixUpos = opts.upos ?? true;
  const fixXpos = opts.xpos ?? true;
  let repaired = 0;
  const tags = predicted.map((p, i) => {
    const g = gold[i]!;
    if (g.upos.length !== p.upos.length) {
      throw new RangeError(`sentence ${i + 1}: ${g.upos.length} gold tags but ${p.upos.length} predicted`);
    }
    const upos = p.upos.slice();
    const xpos = p.xpos.slice();
    for (let j = 0; j < upos.length; j++) {
      if (!select(i, j)) continue;
      let changed = false;
      if (fixUpos && upos[j] !== g.upos[j]) {
        upos[j] = g.upos[j]!;
        changed = true;
      }
      if (fixXpos && xpos[j] !== g.xpos[j]) {
        xpos[j] = g.xpos[j]!;
        changed = true;
      }
      if (changed) repaired++;
    }
    return { upos, xpos };
  });
  return { tags, repaired };
}

/** UPOS confusions (see `uposConfusion`) with their token counts, most frequent first (ties by name). */
export function uposConfusions(
  gold: readonly SentenceTags[],
  predicted: readonly SentenceTags[],
): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]!.upos;
    const p = predicted[i]!.upos;
    for (let j = 0; j < g.length; j++) {
      const c = uposConfusion(g[j]!, p[j]!);
      if (c !== "") counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
