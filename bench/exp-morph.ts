// Lemmas and FEATS: trains the morph model on a treebank's train split and reports on dev, with the
// gold tags and with the bundled tagger's tags, against trivial baselines.
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { readConlluFile } from "../src/conllu/read.js";
import { round } from "../src/eval/percent.js";
import {
  type MorphAccuracy,
  type MorphInput,
  MorphModel,
  morphAccuracy,
  morphSentence,
  type MorphSentence,
} from "../src/morph/morph-model.js";
import { type BenchContext, type Experiment, loadTaggingPipeline, throughFile } from "./lib.js";

/** Lemma and UFeats accuracy of one group of words (seen or unseen in training). */
type WordScores = { lemma: number; ufeats: number };

/** Baselines: lemma = lowercased form; FEATS = the most frequent bundle of the UPOS in train. */
function baselineScores(
  model: MorphModel,
  train: readonly MorphSentence[],
  gold: readonly MorphSentence[],
  input: readonly MorphInput[],
) {
  const counts = new Map<string, Map<string, number>>();
  for (const s of train)
    for (let i = 0; i < s.words.length; i++) {
      let m = counts.get(s.upos[i]!);
      if (m === undefined) counts.set(s.upos[i]!, (m = new Map()));
      m.set(s.feats[i]!, (m.get(s.feats[i]!) ?? 0) + 1);
    }
  const mfs = new Map<string, string>();
  for (const [u, m] of counts) mfs.set(u, [...m].sort((a, b) => b[1] - a[1])[0]![0]);
  const c = { n: 0, l: 0, f: 0, all: 0, sn: 0, sl: 0, sf: 0, un: 0, ul: 0, uf: 0 };
  for (let s = 0; s < gold.length; s++) {
    const g = gold[s]!;
    const x = input[s]!;
    for (let i = 0; i < g.words.length; i++) {
      const l = g.words[i]!.toLowerCase() === g.lemmas[i] ? 1 : 0;
      const f = (mfs.get(x.upos[i]!) ?? "_") === g.feats[i] ? 1 : 0;
      c.n++;
      c.l += l;
      c.f += f;
      if (f && x.upos[i] === g.upos[i] && x.xpos[i] === g.xpos[i]) c.all++;
      if (model.seen(g.words[i]!)) {
        c.sn++;
        c.sl += l;
        c.sf += f;
      } else {
        c.un++;
        c.ul += l;
        c.uf += f;
      }
    }
  }
  const p = (a: number, b: number) => (b === 0 ? 0 : (100 * a) / b);
  return {
    lemma: p(c.l, c.n),
    ufeats: p(c.f, c.n),
    allTags: p(c.all, c.n),
    seen: { lemma: p(c.sl, c.sn), ufeats: p(c.sf, c.sn) },
    unseen: { lemma: p(c.ul, c.un), ufeats: p(c.uf, c.un) },
  };
}

/** `npm run bench -- morph [--tb en_ewt] [--epochs N] [--model BUNDLE] [--no-tagger]`. */
export const experiment: Experiment = {
  summary: "lemmatizer and FEATS tagger: dev accuracy (gold and predicted tags), speed, size",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("morph", args, {
      tb: { type: "string" },
      epochs: { type: "string" },
      model: { type: "string" },
      "no-tagger": { type: "boolean" },
    });
    const tb = values.tb ?? "en_ewt";
    const epochs = numberOption("morph", "epochs", values.epochs, 10, { min: 1, integer: true });
    const train = readConlluFile(ctx.treebank(tb, "train")).map((r) => morphSentence(r.sentence));
    const dev = readConlluFile(ctx.treebank(tb, "dev")).map((r) => morphSentence(r.sentence));
    const t0 = performance.now();
    const model = MorphModel.train(train, {
      epochs,
      dev,
      onEpoch: (p) =>
        ctx.note(
          `epoch ${p.epoch}: ${p.seconds.toFixed(1)} s, dev lemma ${round(p.dev!.lemma)} UFeats ${round(p.dev!.ufeats)}`,
        ),
    });
    const trainSeconds = (performance.now() - t0) / 1000;
    const { model: loaded, bytes } = throughFile(
      (path) => model.save(path),
      (path) => MorphModel.load(path),
    );

    const inputs: [string, MorphInput[]][] = [["gold", dev]];
    // The bundled model is an en_ewt tagger: its tags only mean something on en_ewt (or with --model).
    if (values["no-tagger"] !== true && (tb === "en_ewt" || values.model !== undefined)) {
      const { tagger } = loadTaggingPipeline(values.model);
      inputs.push(["predicted", dev.map((s) => ({ words: s.words, ...tagger.tag(s.words) }))]);
    }
    const rows: (string | number)[][] = [];
    for (const [tags, input] of inputs) {
      const row = (
        system: string,
        r: Pick<MorphAccuracy, "lemma" | "ufeats" | "allTags"> & Record<"seen" | "unseen", WordScores>,
      ): (string | number)[] => [
        system,
        tags,
        round(r.lemma),
        round(r.ufeats),
        round(r.allTags),
        round(r.seen.lemma),
        round(r.unseen.lemma),
        round(r.seen.ufeats),
        round(r.unseen.ufeats),
      ];
      rows.push(row("baseline (lowercase; MF FEATS of UPOS)", baselineScores(loaded, train, dev, input)));
      rows.push(row("morph model", morphAccuracy(loaded, dev, input)));
    }
    const acc = morphAccuracy(loaded, dev);
    ctx.table(
      `${tb} dev (${acc.words} words, ${acc.unseen.words} unseen in train): accuracy %`,
      [
        "system",
        "tags",
        "Lemmas",
        "UFeats",
        "AllTags",
        "lemma seen",
        "lemma unseen",
        "UFeats seen",
        "UFeats unseen",
      ],
      rows,
    );
    // Speed: predictions over dev with gold tags, best of 3.
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const s = performance.now();
      for (const x of dev) loaded.predict(x);
      best = Math.min(best, performance.now() - s);
    }
    ctx.table(
      `${tb}: training and model`,
      ["epochs", "train s", "model MB", "lemma rules", "FEATS bundles", "dictionary entries", "words/s"],
      [
        [
          epochs,
          round(trainSeconds, 1),
          round(bytes / 1e6, 2),
          loaded.rules.size,
          loaded.bundles.length,
          loaded.dictionary.size,
          Math.round(acc.words / (best / 1000)),
        ],
      ],
    );
  },
};
