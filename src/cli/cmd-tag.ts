import { availableParallelism } from "node:os";
import { type ReadOptions, type ReadSentence, streamConllu } from "../conllu/read.js";
import { formatSentence } from "../conllu/write.js";
import { checkTaggerTrainingData } from "../corpus/training-data.js";
import { VineparseError } from "../errors.js";
import { readModelFile } from "../model/model-file.js";
import { taggerFromModelData } from "../pipeline/bundle.js";
import { jackknifeParallel } from "../tagger/jackknife.js";
import { readWordVectors, type WordVectors } from "../vectors/word-vectors.js";
import { taggedSentence } from "../tagger/tagged-sentence.js";
import { toAnnotation } from "../tagger/tagger.js";
import { AtomicWriter, checkWritable } from "../util/atomic-write.js";
import { choiceOption, numberOption, parseCommandArgs, requireOption, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse tag --model MODEL --input F.conllu [--output G.conllu] [--json]
       vineparse tag --jackknife K --input F.conllu [--output G.conllu] [--epochs N] [--seed S]

Fills the UPOS and XPOS columns of CoNLL-U input (every other line and column is kept as it was).
With --model, tags with a trained tagger ('vineparse tagger train') or the tagger of a pipeline
bundle (e.g. the bundled models/en_ewt.vpm). With --jackknife K, splits the
input into K contiguous folds and tags each with a tagger trained on the other K − 1 folds (the
input's own tags are the training data), which is how parser training data gets realistic tags.
"-" means stdin / stdout (the default output). A summary goes to stderr.

options:
  --model FILE      tagger model or pipeline bundle
  --jackknife K     jack-knife the input with K ≥ 2 folds instead of using a model
  --input FILE      CoNLL-U to tag ("-" = stdin)
  --output FILE     where to write (default "-" = stdout; files are written atomically)
  --epochs N        jack-knife: training epochs per fold (default 8)
  --seed S          jack-knife: shuffling seed (default 1)
  --mode M          jack-knife: joint | separate (default joint)
  --vectors FILE    jack-knife: word vectors for the taggers' tag guesses (see 'tagger train')
  --threads N       jack-knife: folds trained in parallel on N worker threads (default: the number
                    of CPUs; the output is the same for every N)
  --json            print the closing summary as one JSON line
  --skip-invalid    skip malformed sentences with a warning instead of stopping
  -h, --help        show this help
`;

/** `vineparse tag`: tags CoNLL-U with a tagger model, or jack-knifes it. */
export const command: Command = {
  summary: "fill UPOS/XPOS with a trained tagger, or jack-knife a training file",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("tag", args, {
      model: { type: "string" },
      jackknife: { type: "string" },
      input: { type: "string" },
      output: { type: "string" },
      epochs: { type: "string" },
      seed: { type: "string" },
      mode: { type: "string" },
      vectors: { type: "string" },
      threads: { type: "string" },
      json: { type: "boolean" },
      "skip-invalid": { type: "boolean" },
    });
    const input = requireOption("tag", "input", values.input);
    checkWritable(values.output ?? "-");
    const readOpts: ReadOptions = {
      requireTree: false,
      onInvalid: values["skip-invalid"] === true ? "skip" : "abort",
      onWarning: (e) => process.stderr.write(`warning: skipped sentence: ${e.message}\n`),
    };
    if (values.jackknife !== undefined) {
      if (values.model !== undefined)
        throw new UsageError("tag: give either --model or --jackknife, not both");
      const k = numberOption("tag", "jackknife", values.jackknife, 10, { min: 2, integer: true });
      const epochs = numberOption("tag", "epochs", values.epochs, 8, { min: 1, integer: true });
      const seed = numberOption("tag", "seed", values.seed, 1, { integer: true });
      const mode = choiceOption("tag", "mode", values.mode, ["joint", "separate"] as const, "joint");
      const vectors = values.vectors === undefined ? null : readWordVectors(values.vectors);
      const threads = numberOption("tag", "threads", values.threads, availableParallelism(), {
        min: 1,
        integer: true,
      });
      return runJackknife(input, values.output ?? "-", readOpts, {
        k,
        epochs,
        seed,
        mode,
        vectors,
        threads,
        json: values.json,
      });
    }
    const modelPath = requireOption("tag", "model", values.model);
    const t0 = performance.now();
    const tagger = taggerFromModelData(readModelFile(modelPath), modelPath);
    const loadSeconds = (performance.now() - t0) / 1000;
    const out = new AtomicWriter(values.output ?? "-");
    let sentences = 0;
    let tokens = 0;
    let start = 0;
    try {
      for await (const r of streamConllu(input, readOpts)) {
        if (sentences === 0) start = performance.now();
        out.write(formatSentence(r.sentence, tagger.annotate(r.sentence)));
        sentences++;
        tokens += r.sentence.words.length;
      }
      out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
    const seconds = sentences === 0 ? 0 : (performance.now() - start) / 1000;
    printSummary({ sentences, tokens, seconds, loadSeconds }, values.json === true);
    return 0;
  },
};

async function runJackknife(
  input: string,
  output: string,
  readOpts: ReadOptions,
  o: {
    k: number;
    epochs: number;
    seed: number;
    mode: "joint" | "separate";
    vectors: WordVectors | null;
    threads: number;
    json: boolean | undefined;
  },
): Promise<number> {
  const read: ReadSentence[] = [];
  for await (const r of streamConllu(input, { ...readOpts, strict: true })) read.push(r);
  checkTaggerTrainingData(
    read.map((r) => taggedSentence(r.sentence)),
    input === "-" ? "<stdin>" : input,
  );
  if (read.length < o.k)
    throw new VineparseError(
      "no-training-data",
      `--jackknife ${o.k} needs at least ${o.k} sentences, found ${read.length}`,
      input === "-" ? "<stdin>" : input,
    );
  const start = performance.now();
  const tags = await jackknifeParallel(
    read.map((r) => r.sentence),
    o.k,
    {
      epochs: o.epochs,
      seed: o.seed,
      mode: o.mode,
      vectors: o.vectors,
      threads: o.threads,
      onFoldDone: (f, s) => process.stderr.write(`fold ${f + 1}/${o.k}: ${s.toFixed(1)} s\n`),
    },
  );
  const out = new AtomicWriter(output);
  let tokens = 0;
  try {
    for (let i = 0; i < read.length; i++) {
      out.write(formatSentence(read[i]!.sentence, toAnnotation(tags[i]!)));
      tokens += read[i]!.sentence.words.length;
    }
    out.commit();
  } catch (e) {
    out.abort();
    throw e;
  }
  const seconds = (performance.now() - start) / 1000;
  const summary = { sentences: read.length, tokens, folds: o.k, seconds: Number(seconds.toFixed(3)) };
  if (o.json === true) process.stderr.write(JSON.stringify(summary) + "\n");
  else
    process.stderr.write(
      `jack-knifed ${summary.sentences} sentences, ${tokens} tokens with ${o.k} folds in ${summary.seconds} s\n`,
    );
  return 0;
}

function printSummary(
  s: { sentences: number; tokens: number; seconds: number; loadSeconds: number },
  json: boolean,
): void {
  const summary = {
    sentences: s.sentences,
    tokens: s.tokens,
    seconds: Number(s.seconds.toFixed(3)),
    tokensPerSecond: s.seconds > 0 ? Math.round(s.tokens / s.seconds) : 0,
    loadSeconds: Number(s.loadSeconds.toFixed(3)),
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  if (json) process.stderr.write(JSON.stringify(summary) + "\n");
  else
    process.stderr.write(
      `tagged ${summary.sentences} sentences, ${summary.tokens} tokens in ${summary.seconds} s (${summary.tokensPerSecond} tokens/s; model loaded in ${summary.loadSeconds} s)\n`,
    );
}
