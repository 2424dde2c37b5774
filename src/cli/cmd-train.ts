import { loadCorpus } from "../corpus/load.js";
import { Vocabularies } from "../corpus/vocab.js";
import { round } from "../eval/percent.js";
import { type EpochReport, trainParser } from "../parser/train.js";
import { choiceOption, numberOption, parseCommandArgs, requireOption } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse train --train T.conllu [--dev D.conllu] --out MODEL [options]

Trains a graph-based dependency parser (arc scores from McDonald et al. 2005 features) and a
relation labeller on a CoNLL-U treebank, using the UPOS/XPOS tags in the file (gold, or
jack-knifed from 'vineparse tag --jackknife'). With --dev, every epoch is evaluated on it and the
best epoch (UAS without punctuation) is kept.

options:
  --train FILE        training treebank (CoNLL-U)
  --dev FILE          development treebank for per-epoch evaluation and model selection
  --out FILE          where to write the model (written atomically)
  --order N           factorization order: 1 (default)
  --decoder NAME      eisner (projective, default) or mst (Chu-Liu-Edmonds, non-projective)
  --algorithm NAME    mira (1-best MIRA, default) or perceptron (averaged)
  --epochs N          passes over the training data (default 10)
  --C X               MIRA step cap (default 0.1)
  --seed N            shuffling seed (default 1)
  --bits N            log2 of the hashed arc-weight table (default 23)
  --skip-invalid      skip malformed sentences with a warning instead of stopping
  --quiet             no progress output
  -h, --help          show this help
`;

/** `vineparse train`: trains a parser model. */
export const command: Command = {
  summary: "train a parser (first order; Eisner or MST decoding) on a CoNLL-U treebank",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("train", args, {
      train: { type: "string" },
      dev: { type: "string" },
      out: { type: "string" },
      order: { type: "string" },
      decoder: { type: "string" },
      algorithm: { type: "string" },
      epochs: { type: "string" },
      C: { type: "string" },
      seed: { type: "string" },
      bits: { type: "string" },
      "skip-invalid": { type: "boolean" },
      quiet: { type: "boolean" },
    });
    const trainPath = requireOption("train", "train", values.train);
    const out = requireOption("train", "out", values.out);
    numberOption("train", "order", values.order, 1, { integer: true, min: 1, max: 1 });
    const decoder = choiceOption("train", "decoder", values.decoder, ["eisner", "mst"] as const, "eisner");
    const algorithm = choiceOption(
      "train",
      "algorithm",
      values.algorithm,
      ["mira", "perceptron"] as const,
      "mira",
    );
    const epochs = numberOption("train", "epochs", values.epochs, 10, { integer: true, min: 1 });
    const C = numberOption("train", "C", values.C, 0.1, { min: 0 });
    const seed = numberOption("train", "seed", values.seed, 1, { integer: true });
    const bits = numberOption("train", "bits", values.bits, 23, { integer: true, min: 10, max: 28 });
    const quiet = values.quiet === true;
    const log = (s: string) => {
      if (!quiet) process.stderr.write(s + "\n");
    };
    const readOpts = {
      onInvalid: values["skip-invalid"] === true ? ("skip" as const) : ("abort" as const),
      onWarning: (e: Error) => process.stderr.write(`warning: skipped sentence: ${e.message}\n`),
    };
    const vocab = new Vocabularies();
    const train = loadCorpus(trainPath, vocab, readOpts).sentences;
    const dev = values.dev === undefined ? undefined : loadCorpus(values.dev, vocab, readOpts).sentences;
    log(
      `train: ${train.length} sentences${dev ? `, dev: ${dev.length} sentences` : ""}; ${decoder} decoder, ${algorithm}`,
    );
    const t0 = Date.now();
    const { parser, bestEpoch } = trainParser(train, vocab, {
      decoder,
      algorithm,
      epochs,
      C,
      seed,
      bits,
      dev,
      onEpoch: (r: EpochReport) => {
        const devText =
          r.dev === null ? "" : `  dev UAS ${round(r.dev.uasNoPunct)} LAS ${round(r.dev.lasNoPunct)}`;
        log(
          `epoch ${r.epoch}/${epochs}  ${r.seconds.toFixed(1)} s  ${Math.round(r.sentencesPerSecond)} sent/s  train UAS ${round(r.trainUas)}${devText}`,
        );
      },
    });
    parser.save(out);
    log(
      `kept epoch ${bestEpoch}; trained in ${((Date.now() - t0) / 1000).toFixed(1)} s; model written to ${out}`,
    );
    return 0;
  },
};
