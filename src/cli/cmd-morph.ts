import { basename } from "node:path";
import { readConlluFile, type ReadOptions, streamConllu } from "../conllu/read.js";
import { VineparseError } from "../errors.js";
import { formatMorph, MorphModel, morphAccuracy, morphSentence } from "../morph/morph-model.js";
import { readModelFile } from "../model/model-file.js";
import { morphFromModelData, writeBundleWithPart } from "../pipeline/bundle.js";
import { AtomicWriter, checkWritable } from "../util/atomic-write.js";
import { numberOption, parseCommandArgs, requireOption } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse morph train --train T.conllu [--dev D.conllu] --out MODEL [--epochs N] [--seed S]
       vineparse morph --model MODEL --input F.conllu [--output G.conllu] [--json]
       vineparse morph eval --model MODEL --gold G.conllu [--input S.conllu] [--json]
       vineparse morph attach --model BUNDLE --morph MODEL|none --out BUNDLE2

Lemmas and morphological features. 'train' learns a lemmatizer (lemma edit rules chosen by an
averaged perceptron, with a dictionary of the training words) and a FEATS tagger from the gold
LEMMA and FEATS columns. Without a subcommand, fills the LEMMA and FEATS columns of CoNLL-U input
from its forms, UPOS and XPOS (every other line and column is kept as it was). 'eval' scores the
model on gold data: lemma accuracy, UFeats (the whole FEATS string), AllTags (UPOS, XPOS and FEATS),
on all words and on words seen or unseen in training; with --input, the model reads that file's
tags (e.g. predicted ones) instead of the gold ones. 'attach' writes a copy of a pipeline bundle
with the morph model in it (or with none), so that 'vineparse parse' fills LEMMA and FEATS in the
sentences it tags (see its --morph).

options:
  --train FILE      training CoNLL-U
  --dev FILE        CoNLL-U to choose the best epoch on
  --out FILE        where to write the model
  --epochs N        training epochs (default 10)
  --seed S          shuffling seed (default 1)
  --bits B          weight table bits (default 20)
  --model FILE      morph model, or a pipeline bundle holding one ('attach': the bundle)
  --morph FILE      'attach': the morph model to put in the bundle, or none to take it out
  --input FILE      CoNLL-U to annotate ("-" = stdin)
  --output FILE     where to write (default "-" = stdout; files are written atomically)
  --gold FILE       gold CoNLL-U for 'eval'
  --json            print the summary as one JSON line
  -h, --help        show this help
`;

function load(path: string) {
  return readConlluFile(path, { requireTree: false, strict: true }).map((r) => morphSentence(r.sentence));
}

/** `vineparse morph`: train, apply or evaluate a lemmatizer and FEATS tagger. */
export const command: Command = {
  summary: "lemmas and morphological features (vineparse morph train|eval ...)",
  usage,
  async run(args) {
    if (args[0] === "train") return train(args.slice(1));
    if (args[0] === "eval") return evaluate(args.slice(1));
    if (args[0] === "attach") return attach(args.slice(1));
    return annotate(args);
  },
};

async function train(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("morph train", args, {
    train: { type: "string" },
    dev: { type: "string" },
    out: { type: "string" },
    epochs: { type: "string" },
    seed: { type: "string" },
    bits: { type: "string" },
  });
  const trainPath = requireOption("morph train", "train", values.train);
  const outPath = requireOption("morph train", "out", values.out);
  checkWritable(outPath);
  const epochs = numberOption("morph train", "epochs", values.epochs, 10, { min: 1, integer: true });
  const seed = numberOption("morph train", "seed", values.seed, 1, { integer: true });
  const bits = numberOption("morph train", "bits", values.bits, 20, { min: 10, max: 26, integer: true });
  const data = load(trainPath);
  if (data.length === 0) throw new VineparseError("no-training-data", "no sentences to train on", trainPath);
  const dev = values.dev === undefined ? undefined : load(values.dev);
  const t0 = performance.now();
  const model = MorphModel.train(data, {
    epochs,
    seed,
    bits,
    dev,
    onEpoch: (p) =>
      process.stderr.write(
        `epoch ${p.epoch}/${epochs}: ${p.seconds.toFixed(1)} s` +
          (p.dev === undefined
            ? ""
            : `, dev lemma ${p.dev.lemma.toFixed(2)}% UFeats ${p.dev.ufeats.toFixed(2)}%`) +
          "\n",
      ),
  });
  model.save(outPath);
  process.stderr.write(
    `trained in ${((performance.now() - t0) / 1000).toFixed(1)} s (${model.rules.size} lemma rules, ${model.bundles.length} feature bundles); wrote ${outPath}\n`,
  );
  return 0;
}

async function annotate(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("morph", args, {
    model: { type: "string" },
    input: { type: "string" },
    output: { type: "string" },
    json: { type: "boolean" },
  });
  const modelPath = requireOption("morph", "model", values.model);
  const input = requireOption("morph", "input", values.input);
  checkWritable(values.output ?? "-");
  const model = morphFromModelData(readModelFile(modelPath), modelPath);
  const readOpts: ReadOptions = { requireTree: false };
  const out = new AtomicWriter(values.output ?? "-");
  let sentences = 0;
  let tokens = 0;
  const start = performance.now();
  try {
    for await (const r of streamConllu(input, readOpts)) {
      const s = r.sentence;
      out.write(formatMorph(s, model.predict(morphSentence(s))));
      sentences++;
      tokens += s.words.length;
    }
    out.commit();
  } catch (e) {
    out.abort();
    throw e;
  }
  const seconds = (performance.now() - start) / 1000;
  const summary = {
    sentences,
    tokens,
    seconds: Number(seconds.toFixed(3)),
    tokensPerSecond: seconds > 0 ? Math.round(tokens / seconds) : 0,
  };
  process.stderr.write(
    values.json === true
      ? JSON.stringify(summary) + "\n"
      : `annotated ${sentences} sentences, ${tokens} tokens in ${summary.seconds} s (${summary.tokensPerSecond} tokens/s)\n`,
  );
  return 0;
}

async function evaluate(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("morph eval", args, {
    model: { type: "string" },
    gold: { type: "string" },
    input: { type: "string" },
    json: { type: "boolean" },
  });
  const modelPath = requireOption("morph eval", "model", values.model);
  const model = morphFromModelData(readModelFile(modelPath), modelPath);
  const goldPath = requireOption("morph eval", "gold", values.gold);
  const gold = load(goldPath);
  const input = values.input === undefined ? gold : load(values.input);
  if (input.length !== gold.length)
    throw new VineparseError(
      "morph-eval",
      `has ${input.length} sentences, the gold file ${gold.length}`,
      values.input ?? goldPath,
    );
  const a = morphAccuracy(model, gold, input);
  if (values.json === true) {
    process.stdout.write(JSON.stringify(a) + "\n");
    return 0;
  }
  const f = (x: number) => x.toFixed(2).padStart(6);
  process.stdout.write(
    [
      `words            ${a.words}`,
      `Lemmas           ${f(a.lemma)}`,
      `UFeats           ${f(a.ufeats)}`,
      `AllTags          ${f(a.allTags)}`,
      `Lemmas+UFeats    ${f(a.lemmaFeats)}`,
      `seen   (${a.seen.words} words)  lemma ${f(a.seen.lemma)}  UFeats ${f(a.seen.ufeats)}`,
      `unseen (${a.unseen.words} words)  lemma ${f(a.unseen.lemma)}  UFeats ${f(a.unseen.ufeats)}`,
    ].join("\n") + "\n",
  );
  return 0;
}

async function attach(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("morph attach", args, {
    model: { type: "string" },
    morph: { type: "string" },
    out: { type: "string" },
  });
  const bundlePath = requireOption("morph attach", "model", values.model);
  const morphPath = requireOption("morph attach", "morph", values.morph);
  const out = requireOption("morph attach", "out", values.out);
  checkWritable(out);
  const morph = morphPath === "none" ? undefined : MorphModel.load(morphPath);
  writeBundleWithPart(bundlePath, out, { morph }, basename(morphPath));
  process.stderr.write(
    `${out}: ${morph === undefined ? "no morph model" : `morph model ${basename(morphPath)} (${morph.rules.size} lemma rules, ${morph.bundles.length} feature bundles)`}\n`,
  );
  return 0;
}
