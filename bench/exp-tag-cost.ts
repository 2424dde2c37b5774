// What tagging errors cost the parser, broken down by kind: dev is tagged by the model's tagger and
// parsed with the predicted tags, with the gold tags, and with predicted tags in which one kind of
// error at a time is repaired (gold tags restored on those tokens only).
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { readConlluFile } from "../src/conllu/read.js";
import { FORM } from "../src/conllu/types.js";
import { round } from "../src/eval/percent.js";
import { repairTags, type SentenceTags, uposConfusion, uposConfusions } from "../src/eval/tag-errors.js";
import { tagAccuracy } from "../src/tagger/accuracy.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { type BenchContext, type Experiment, loadTaggingPipeline, parseWithTags } from "./lib.js";

/**
 * `npm run bench -- tag-cost [--tb en_ewt] [--model models/en_ewt.vpm] [--top 10]`. Rows: every
 * UPOS error (XPOS left as predicted), XPOS errors of tokens whose UPOS is right, errors on words
 * seen / unseen in the treebank's train split, and the `top` most frequent UPOS confusions.
 */
export const experiment: Experiment = {
  summary:
    "cost of tagging errors by kind: parse dev with predicted tags, each kind of error repaired in turn",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("tag-cost", args, {
      tb: { type: "string" },
      model: { type: "string" },
      top: { type: "string" },
    });
    const top = numberOption("tag-cost", "top", values.top, 10, { integer: true, min: 0 });
    const tb = values.tb ?? "en_ewt";
    const dev = readConlluFile(ctx.treebank(tb, "dev"));
    const train = readConlluFile(ctx.treebank(tb, "train"));
    const { tagger, parser } = loadTaggingPipeline(values.model);

    const seen = new Set<string>();
    for (const r of train) for (const w of r.sentence.words) seen.add(w[FORM]!);
    const gold = dev.map((r) => taggedSentence(r.sentence));
    const words = gold.map((g) => g.words);
    const pred: SentenceTags[] = words.map((w) => tagger.tag(w));
    const acc = tagAccuracy(gold, pred);

    const base = parseWithTags(parser, dev, pred).scores.uasNoPunct;
    const ceiling = parseWithTags(parser, dev, gold).scores.uasNoPunct;
    const gap = ceiling - base;
    const rows: (string | number)[][] = [];
    const row = (what: string, repaired: number, uas: number) => {
      const recovered = uas - base;
      rows.push([
        what,
        repaired,
        round(uas),
        round(recovered),
        gap > 0 ? round((100 * recovered) / gap) : "",
        repaired > 0 ? round((100 * recovered) / repaired, 3) : "",
      ]);
    };
    row("none (predicted tags)", 0, base);
    const tryRepair = (
      what: string,
      select: (i: number, j: number) => boolean,
      opts: { upos?: boolean; xpos?: boolean } = {},
    ) => {
      const r = repairTags(gold, pred, select, opts);
      row(what, r.repaired, parseWithTags(parser, dev, r.tags).scores.uasNoPunct);
    };
    const uposWrong = (i: number, j: number) => gold[i]!.upos[j] !== pred[i]!.upos[j];
    tryRepair("all (gold tags)", () => true);
    tryRepair("UPOS errors, UPOS only (XPOS stays predicted)", uposWrong, { xpos: false });
    tryRepair("UPOS errors, UPOS and XPOS", uposWrong);
    tryRepair("XPOS errors of tokens with the right UPOS", (i, j) => !uposWrong(i, j));
    tryRepair("words seen in train", (i, j) => seen.has(words[i]![j]!));
    tryRepair("words unseen in train", (i, j) => !seen.has(words[i]![j]!));
    for (const c of uposConfusions(gold, pred).slice(0, top)) {
      tryRepair(`UPOS ${c.name}`, (i, j) => uposConfusion(gold[i]!.upos[j]!, pred[i]!.upos[j]!) === c.name);
    }

    ctx.note(
      `${tb} dev: ${dev.length} sentences, ${acc.tokens} words; model ${values.model ?? "bundled"} (parser order ${parser.order}); ` +
        `tagger UPOS ${round(acc.upos)} %, XPOS ${round(acc.xpos)} %; ` +
        `UAS (no punct) with predicted tags ${round(base)}, with gold tags ${round(ceiling)}: tagging errors cost ${round(gap)} points`,
    );
    ctx.table(
      `Parser UAS (no punct) on ${tb} dev with predicted tags, after repairing one kind of tagging error`,
      ["errors repaired", "tokens repaired", "UAS", "recovered", "% of cost", "recovered per 100 repaired"],
      rows,
    );
    ctx.note(
      "A token is repaired when its gold UPOS and XPOS (or only the named one) replace the predicted ones; " +
        "rows overlap (a token can be counted by several rows), and recoveries do not add up exactly because one " +
        "token's tag changes the parse of its neighbours.",
    );
  },
};
