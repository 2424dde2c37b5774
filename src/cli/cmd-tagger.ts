import { readConlluFile } from "../conllu/read.js";
import { checkTaggerTrainingData } from "../corpus/training-data.js";
import { type TaggedSentence, taggedSentence } from "../tagger/tagged-sentence.js";
import { Tagger } from "../tagger/tagger.js";
import { checkWritable } from "../util/atomic-write.js";
import { readWordVectors } from "../vectors/word-vectors.js";
import { choiceOption, numberOption, parseCommandArgs, requireOption, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse tagger train --train T.conllu [--dev D.conllu] [--epochs N] [--seed S]
                              [--mode joint|separate] [--beam K] [--vectors V] --out MODEL

Trains an averaged-perceptron part-of-speech tagger (UPOS and XPOS) on the gold tags of a CoNLL-U
file and writes it to MODEL. Progress (epoch, tokens/s, dev accuracy) goes to stderr.

options:
  --train FILE      training CoNLL-U
  --dev FILE        CoNLL-U to report accuracy on after every epoch (not trained on)
  --epochs N        passes over the training data (default 8)
  --seed S          shuffling seed (default 1); same data and seed give the same model
  --mode M          joint: one model over (UPOS, XPOS) pairs (default); separate: one model each
  --min-count N     tag dictionary: minimum word frequency (default 20)
  --min-ratio R     tag dictionary: minimum share of the dominant tag (default 0.97)
  --no-dictionary   do not use a tag dictionary
  --lexicon-min-count N  lexicon features: minimum word frequency (default 30)
  --beam K          beam width of training and tagging (default 1: greedy)
  --vectors FILE    word vectors from unlabelled text ('npm run build-vectors', or GloVe /
                    word2vec / fastText text format): the tagger learns a tag guess for every word
                    they cover and uses it as features (the guesses are stored in the model)
  --out FILE        where to write the model
  -h, --help        show this help
`;

function load(path: string): TaggedSentence[] {
  return readConlluFile(path, { requireTree: false, strict: true }).map((r) => taggedSentence(r.sentence));
}

/** `vineparse tagger train`: trains a PoS tagger. */
export const command: Command = {
  summary: "train a part-of-speech tagger (vineparse tagger train ...)",
  usage,
  async run(args) {
    if (args[0] !== "train")
      throw new UsageError(`tagger: expected a subcommand: train (see vineparse tagger --help)`);
    const { values } = parseCommandArgs("tagger train", args.slice(1), {
      train: { type: "string" },
      dev: { type: "string" },
      epochs: { type: "string" },
      seed: { type: "string" },
      mode: { type: "string" },
      "min-count": { type: "string" },
      "min-ratio": { type: "string" },
      "no-dictionary": { type: "boolean" },
      "lexicon-min-count": { type: "string" },
      beam: { type: "string" },
      vectors: { type: "string" },
      out: { type: "string" },
    });
    const trainPath = requireOption("tagger train", "train", values.train);
    const outPath = requireOption("tagger train", "out", values.out);
    checkWritable(outPath);
    const epochs = numberOption("tagger train", "epochs", values.epochs, 8, { min: 1, integer: true });
    const seed = numberOption("tagger train", "seed", values.seed, 1, { integer: true });
    const mode = choiceOption("tagger train", "mode", values.mode, ["joint", "separate"] as const, "joint");
    const minCount = numberOption("tagger train", "min-count", values["min-count"], 20, {
      min: 1,
      integer: true,
    });
    const minRatio = numberOption("tagger train", "min-ratio", values["min-ratio"], 0.97, { min: 0, max: 1 });
    const lexiconMinCount = numberOption(
      "tagger train",
      "lexicon-min-count",
      values["lexicon-min-count"],
      30,
      { min: 1, integer: true },
    );
    const beam = numberOption("tagger train", "beam", values.beam, 1, { min: 1, integer: true });
    const vectors = values.vectors === undefined ? null : readWordVectors(values.vectors);
    const train = load(trainPath);
    checkTaggerTrainingData(train, trainPath);
    const dev = values.dev === undefined ? undefined : load(values.dev);
    let tokens = 0;
    for (const s of train) tokens += s.words.length;
    process.stderr.write(
      `training on ${train.length} sentences, ${tokens} tokens (${mode}, ${epochs} epochs)\n`,
    );
    const t0 = performance.now();
    const tagger = Tagger.train(train, {
      epochs,
      seed,
      mode,
      dictionary: values["no-dictionary"] === true ? false : { minCount, minRatio },
      lexicon: { minCount: lexiconMinCount },
      beam,
      vectors,
      dev,
      onEpoch: (p) => {
        const devText =
          p.dev === undefined ? "" : `, dev UPOS ${p.dev.upos.toFixed(2)}% XPOS ${p.dev.xpos.toFixed(2)}%`;
        process.stderr.write(
          `epoch ${p.epoch}/${p.epochs}: ${p.seconds.toFixed(1)} s, ${Math.round(p.tokensPerSecond)} tokens/s, train ${p.trainAccuracy.toFixed(2)}%${devText}\n`,
        );
      },
    });
    tagger.save(outPath);
    process.stderr.write(`trained in ${((performance.now() - t0) / 1000).toFixed(1)} s; wrote ${outPath}\n`);
    return 0;
  },
};
