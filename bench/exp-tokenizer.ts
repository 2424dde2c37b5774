// Tokenizers: the rule-based English tokenizer and splitter against one learned from each treebank's
// train split (`vineparse tokenizer train`), on each dev set's raw text rebuilt document by document
// (sentences of a paragraph joined by a space, paragraphs on lines of their own, as the pipeline bench
// gives them), scored the CoNLL 2018 way; with training time, model size and speed.
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { readConlluFile } from "../src/conllu/read.js";
import { round } from "../src/eval/percent.js";
import { ENGLISH_RULES, type Segmenter } from "../src/pipeline/sentence-split.js";
import {
  evaluateFull,
  goldSentences,
  type TokenEvalResult,
  treebankSpacing,
} from "../src/pipeline/token-eval.js";
import { LearnedTokenizer } from "../src/tokenizer/learned-tokenizer.js";
import { type BenchContext, type Experiment, throughFile } from "./lib.js";

const TREEBANKS = ["en_ewt", "hu_szeged", "tr_imst", "el_gdt", "zh_gsd"];

/** `npm run bench -- tokenizer [--tb a,b,…] [--epochs N] [--reps R]`. */
export const experiment: Experiment = {
  summary: "tokenizer and sentence splitter: English rules against one learned per treebank (dev F1, speed)",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("tokenizer", args, {
      tb: { type: "string" },
      epochs: { type: "string" },
      reps: { type: "string" },
    });
    const tbs = values.tb === undefined ? TREEBANKS : values.tb.split(",");
    const epochs = numberOption("tokenizer", "epochs", values.epochs, 8, { min: 1, integer: true });
    const reps = numberOption("tokenizer", "reps", values.reps, 5, { min: 1, integer: true });
    const rows: (string | number)[][] = [];
    for (const tb of tbs) {
      const train = readConlluFile(ctx.treebank(tb, "train"), { requireTree: false }).map((r) => r.sentence);
      // Raw text written without spaces (zh_gsd's copy here has no `# text`): rebuilt without them.
      const spacing = treebankSpacing(tb);
      const gold = goldSentences(
        readConlluFile(ctx.treebank(tb, "dev"), { requireTree: false }).map((r) => r.sentence),
        { spacing },
      );
      const t0 = performance.now();
      const trained = LearnedTokenizer.train(train, { epochs, spacing });
      const trainSeconds = (performance.now() - t0) / 1000;
      const { model: learned, bytes } = throughFile(
        (path) => trained.save(path),
        (path) => LearnedTokenizer.load(path),
      );
      // Scores, and the best time of `reps` runs of each, the two alternating.
      const systems: [string, Segmenter][] = [
        ["English rules", ENGLISH_RULES],
        ["learned", learned],
        ["learned sentences, rules' words", learned.withWordsBy("rules")],
      ];
      // Where the lexicon is on by default (spacing none), the same model trained without it.
      if (learned.lexicon !== null)
        systems.push([
          "learned without the lexicon",
          LearnedTokenizer.train(train, { epochs, spacing, lexicon: false }),
        ]);
      const results: TokenEvalResult[] = [];
      const best = systems.map(() => Infinity);
      for (let r = 0; r < reps; r++)
        systems.forEach(([, segmenter], i) => {
          const res = evaluateFull(gold, { segmenter, newlineBoundary: true });
          results[i] = res;
          best[i] = Math.min(best[i]!, res.seconds);
        });
      ctx.note(`${tb}: ${gold.length} dev sentences, ${results[0]!.chars} characters, spacing ${spacing}`);
      systems.forEach(([name], i) => {
        const res = results[i]!;
        rows.push([
          tb,
          name,
          round(res.tokens.f1),
          round(res.words.f1),
          round(res.sentences!.f1),
          Math.round(res.chars / best[i]!),
          i === 1 ? round(trainSeconds, 1) : "",
          i === 1 ? round(bytes / 1e3, 1) : "",
          i === 1 ? learned.mwt.size : "",
        ]);
      });
    }
    ctx.table(
      "dev raw text, paragraphs on lines of their own: F1 % (CoNLL 2018 alignment)",
      [
        "treebank",
        "tokenizer",
        "tokens",
        "words",
        "sentences",
        "chars/s",
        "train s",
        "model kB",
        "MWT forms",
      ],
      rows,
    );
  },
};
