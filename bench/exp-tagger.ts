// PoS tagger: accuracy, training time, tagging speed and model size per treebank and mode.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { readConlluFile } from "../src/conllu/read.js";
import type { Cell } from "../src/eval/table.js";
import { tagAccuracy } from "../src/tagger/accuracy.js";
import type { TaggerMode } from "../src/tagger/tag-decoder.js";
import { type TaggedSentence, taggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { readWordVectors, type WordVectors } from "../src/vectors/word-vectors.js";
import type { Experiment } from "./lib.js";

function load(path: string): TaggedSentence[] {
  return readConlluFile(path, { requireTree: false }).map((r) => taggedSentence(r.sentence));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * `npm run bench -- tagger [--tb en_ewt,zh_gsd] [--mode joint,separate] [--epochs N] [--seed S] [--repeat N]
 * [--curve] [--vectors FILE]`. With --vectors (e.g. models/en_vectors.vpm from `npm run build-vectors`),
 * every tagger is trained twice, without and with tag guesses from the vectors.
 */
export const experiment: Experiment = {
  summary: "PoS tagger on gold tokens: dev UPOS/XPOS accuracy, training time, tokens/s, model size",
  async run(args, ctx) {
    const { values } = parseCommandArgs("bench tagger", args, {
      tb: { type: "string" },
      mode: { type: "string" },
      epochs: { type: "string" },
      seed: { type: "string" },
      repeat: { type: "string" },
      curve: { type: "boolean" },
      vectors: { type: "string" },
    });
    const vectorChoices: (WordVectors | null)[] = [null];
    if (values.vectors !== undefined) vectorChoices.push(readWordVectors(values.vectors));
    const tbs = (values.tb ?? "en_ewt,zh_gsd,tr_imst,hu_szeged,el_gdt").split(",");
    const modes = (values.mode ?? "joint").split(",") as TaggerMode[];
    const epochs = numberOption("bench tagger", "epochs", values.epochs, 8, { integer: true, min: 1 });
    const seed = numberOption("bench tagger", "seed", values.seed, 1, { integer: true });
    const repeat = numberOption("bench tagger", "repeat", values.repeat, 3, { integer: true, min: 1 });
    const dir = mkdtempSync(join(tmpdir(), "vineparse-bench-tagger-"));
    const rows: Cell[][] = [];
    const curve: Cell[][] = [];
    try {
      for (const tb of tbs) {
        const train = load(ctx.treebank(tb, "train"));
        const dev = load(ctx.treebank(tb, "dev"));
        const seen = new Set<string>();
        for (const s of train) for (const w of s.words) seen.add(w);
        let devTokens = 0;
        for (const s of dev) devTokens += s.words.length;
        for (const mode of modes) {
          for (const vectors of vectorChoices) {
            const vectorName = vectors === null ? "none" : basename(values.vectors!);
            const { result: tagger, seconds: trainSeconds } = await ctx.time(() =>
              Tagger.train(train, {
                epochs,
                seed,
                mode,
                vectors,
                dev: values.curve === true ? dev : undefined,
                onEpoch: (p) => {
                  if (p.dev !== undefined) {
                    curve.push([
                      tb,
                      mode,
                      vectorName,
                      p.epoch,
                      round2(p.dev.upos),
                      round2(p.dev.xpos),
                      round2(p.dev.both),
                    ]);
                  }
                },
              }),
            );
            const path = join(dir, `${tb}-${mode}-${vectorName}.tagger`);
            tagger.save(path);
            const { result: loaded, seconds: loadSeconds } = await ctx.time(() => Tagger.load(path));
            let best = Number.POSITIVE_INFINITY;
            let pred: { upos: string[]; xpos: string[] }[] = [];
            for (let r = 0; r < repeat; r++) {
              const t = await ctx.time(() => dev.map((s) => loaded.tag(s.words)));
              best = Math.min(best, t.seconds);
              pred = t.result;
            }
            const acc = tagAccuracy(dev, pred);
            let unseen = 0;
            let unseenRight = 0;
            dev.forEach((s, k) => {
              for (let i = 0; i < s.words.length; i++) {
                if (seen.has(s.words[i]!)) continue;
                unseen++;
                if (pred[k]!.upos[i] === s.upos[i]) unseenRight++;
              }
            });
            rows.push([
              tb,
              mode,
              vectorName,
              epochs,
              round2(acc.upos),
              round2(acc.xpos),
              round2(acc.both),
              round2((100 * unseenRight) / Math.max(1, unseen)),
              round2(trainSeconds),
              Math.round(devTokens / best),
              round2(statSync(path).size / 2 ** 20),
              round2(loadSeconds),
            ]);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    ctx.table(
      `PoS tagger on UD dev, gold tokens (seed ${seed}; tokens/s = best of ${repeat} passes over dev, model loaded)`,
      [
        "treebank",
        "mode",
        "vectors",
        "epochs",
        "UPOS %",
        "XPOS %",
        "both %",
        "unseen UPOS %",
        "train s",
        "tag tokens/s",
        "model MiB",
        "load s",
      ],
      rows,
    );
    if (curve.length > 0) {
      ctx.table(
        "Dev accuracy of the averaged model after each epoch",
        ["treebank", "mode", "vectors", "epoch", "UPOS %", "XPOS %", "both %"],
        curve,
      );
    }
  },
};
