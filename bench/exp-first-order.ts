// First-order parser on a UD treebank: dev accuracy, training time and parse throughput per decoder.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { round } from "../src/eval/percent.js";
import type { Cell } from "../src/eval/table.js";
import { Parser } from "../src/parser/parser.js";
import { evaluateParser, trainParser } from "../src/parser/train.js";
import { type BenchContext, type Experiment, runParseCommand } from "./lib.js";

/** `npm run bench -- first-order [--tb en_ewt] [--epochs 10] [--decoders eisner,mst] [--train-limit N]`. */
export const experiment: Experiment = {
  summary: "first-order parser: dev UAS/LAS, training time, parse tokens/s (Eisner and MST)",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("first-order", args, {
      tb: { type: "string" },
      epochs: { type: "string" },
      decoders: { type: "string" },
      "train-limit": { type: "string" },
      algorithm: { type: "string" },
    });
    const tb = values.tb ?? "en_ewt";
    const epochs = numberOption("first-order", "epochs", values.epochs, 10, { integer: true, min: 1 });
    const limit = numberOption("first-order", "train-limit", values["train-limit"], 0, {
      integer: true,
      min: 0,
    });
    const decoders = (values.decoders ?? "eisner,mst").split(",") as ("eisner" | "mst")[];
    const algorithm = values.algorithm === "perceptron" ? "perceptron" : "mira";
    const dir = join(ctx.udRoot(), tb);
    const devPath = join(dir, "dev.conllu");
    const vocab = new Vocabularies();
    let train = loadCorpus(join(dir, "train.conllu"), vocab).sentences;
    if (limit > 0) train = train.slice(0, limit);
    const dev = loadCorpus(devPath, vocab).sentences;
    const devTokens = dev.reduce((a, s) => a + s.n, 0);
    ctx.note(ctx.header());
    ctx.note(
      `${tb}: ${train.length} training sentences, ${dev.length} dev sentences (${devTokens} tokens); gold tags`,
    );
    const tmp = mkdtempSync(join(tmpdir(), "vp-bench-"));
    const rows: Cell[][] = [];
    try {
      for (const decoder of decoders) {
        const t0 = process.hrtime.bigint();
        const { parser, bestEpoch } = trainParser(train, vocab, {
          decoder,
          epochs,
          algorithm,
          dev,
          onEpoch: (r) =>
            ctx.note(
              `  ${decoder} epoch ${r.epoch}: ${r.seconds.toFixed(1)} s, dev UAS ${round(r.dev?.uasNoPunct ?? 0)} LAS ${round(r.dev?.lasNoPunct ?? 0)}`,
            ),
        });
        const trainSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
        const model = join(tmp, `${decoder}.bin`);
        parser.save(model);
        // In-process parse speed (sentences in memory, model loaded, no I/O); best of 3.
        const loaded = Parser.load(model);
        let inproc = Number.POSITIVE_INFINITY;
        for (let rep = 0; rep < 3; rep++) {
          const { seconds } = await ctx.time(() => {
            for (const s of dev) loaded.parse(s, vocab);
          });
          inproc = Math.min(inproc, seconds);
        }
        const scores = evaluateParser(loaded, dev, vocab);
        // CLI: whole process (start + model load + read + parse + write), and its own I/O-included timing.
        const out = join(tmp, `${decoder}.conllu`);
        const { summary, wall } = runParseCommand(model, devPath, out);
        rows.push([
          decoder,
          bestEpoch,
          round(scores.uasNoPunct),
          round(scores.lasNoPunct),
          round(scores.uas),
          round(scores.las),
          round(trainSeconds / 60, 1),
          Math.round(devTokens / inproc),
          Math.round(dev.length / inproc),
          summary.tokensPerSecond,
          Math.round(devTokens / wall),
          Math.round(dev.length / wall),
          summary.maxRssMiB,
          readFileSync(model).length >> 20,
        ]);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    ctx.table(
      `First-order parser on ${tb} dev (gold tags, ${epochs} epochs ${algorithm}, best epoch by dev UAS)`,
      [
        "decoder",
        "epoch",
        "UAS-P",
        "LAS-P",
        "UAS",
        "LAS",
        "train min",
        "tok/s parse",
        "sent/s parse",
        "tok/s CLI I/O",
        "tok/s CLI all",
        "sent/s CLI all",
        "parse RSS MiB",
        "model MiB",
      ],
      rows,
    );
    ctx.note(
      "UAS-P/LAS-P exclude punctuation. 'parse' = in-process, sentences in memory, model loaded; 'CLI I/O' = vineparse parse timed from first sentence read to last written; 'CLI all' = whole process incl. start and model load.",
    );
  },
};
