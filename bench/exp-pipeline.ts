// Raw-text pipeline on a UD treebank's dev set: tokenizer F1, tagger accuracy, parser accuracy on gold
// tokens with predicted tags, end-to-end accuracy from raw text, and the throughput of every stage.
import { numberOption, parseCommandArgs } from "../src/cli/args.js";
import { readConlluFile } from "../src/conllu/read.js";
import { FORM, LEMMA } from "../src/conllu/types.js";
import { AlignedAttachmentEvaluator, type SpannedWords } from "../src/eval/aligned-attachment.js";
import { appendWords } from "../src/eval/aligned-files.js";
import { round } from "../src/eval/percent.js";
import { spacingOption } from "../src/cli/cmd-tokenizer.js";
import {
  evaluateFull,
  evaluateTokenization,
  goldSentences,
  sentenceSeparator,
  treebankSpacing,
} from "../src/pipeline/token-eval.js";
import { morphAccuracy, morphSentence } from "../src/morph/morph-model.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { tagAccuracy } from "../src/tagger/accuracy.js";
import type { ReadSentence } from "../src/conllu/read.js";
import type { AttachmentScores } from "../src/eval/attachment.js";
import type { AnnotatedSentence } from "../src/pipeline/pipeline.js";
import { type BenchContext, bestOf, type Experiment, loadTaggingPipeline, parseWithTags } from "./lib.js";

/**
 * `npm run bench -- pipeline [--tb en_ewt] [--model models/en_ewt.vpm] [--reps 3] [--compare B.vpm] [--spacing space|none]`. Speeds of the
 * tagger, the parser and the whole pipeline are the best of `reps` passes over dev (the first pass
 * also warms up the JIT); scores come from the first pass (every pass gives the same output). With
 * `--compare`, a second bundle runs end to end and its parser on gold tokens (with its own tagger's
 * tags) in the same run, interleaved with the first (A B A B …), with speed ratios.
 */
export const experiment: Experiment = {
  summary:
    "raw-text pipeline: tokenizer F1, tagger accuracy, parser UAS/LAS (gold tokens and raw text), stage speeds",
  async run(args: string[], ctx: BenchContext) {
    const { values } = parseCommandArgs("pipeline", args, {
      tb: { type: "string" },
      model: { type: "string" },
      reps: { type: "string" },
      compare: { type: "string" },
      spacing: { type: "string" },
    });
    const reps = numberOption("pipeline", "reps", values.reps, 3, { integer: true, min: 1 });
    const tb = values.tb ?? "en_ewt";
    // How dev's raw text is rebuilt (by default from the treebank's language: none for zh, ja).
    const spacing = spacingOption("pipeline", values.spacing ?? treebankSpacing(tb));
    const { pipeline, tagger, parser } = loadTaggingPipeline(values.model);
    const dev = readConlluFile(ctx.treebank(tb, "dev"));
    const tokens = dev.reduce((a, r) => a + r.sentence.words.length, 0);
    // A treebank without lemma annotation (every LEMMA "_", as zh_gsd's copy here) gets no lemma scores.
    const hasLemmas = dev.some((r) => r.sentence.words.some((w) => w[LEMMA] !== "_"));
    ctx.note(ctx.header());
    ctx.note(
      `${tb} dev: ${dev.length} sentences, ${tokens} words; model ${values.model ?? "bundled"}; raw text spacing ${spacing}`,
    );
    const rows: (string | number)[][] = [];

    // 1. Tokenizer (each sentence's text alone), and splitter + tokenizer on whole documents.
    const gold = goldSentences(dev, { spacing });
    const segmenter = pipeline.segmenter;
    const tokA = evaluateTokenization(gold, segmenter);
    const tokB = evaluateFull(gold, { newlineBoundary: true, segmenter });
    rows.push([
      "tokenizer (per sentence text)",
      "words F1",
      round(tokA.words.f1),
      Math.round(tokA.chars / tokA.seconds),
      "chars/s",
    ]);
    rows.push([
      "splitter + tokenizer (documents)",
      "words F1",
      round(tokB.words.f1),
      Math.round(tokB.chars / tokB.seconds),
      "chars/s",
    ]);
    rows.push(["splitter + tokenizer (documents)", "sentences F1", round(tokB.sentences!.f1), "", ""]);

    // 2. Tagger on gold tokens.
    const tagged = dev.map((r) => taggedSentence(r.sentence));
    const { result: tags, seconds: tagSeconds } = bestOf(reps, () => tagged.map((s) => tagger.tag(s.words)));
    const acc = tagAccuracy(tagged, tags);
    rows.push([
      "tagger (gold tokens)",
      "UPOS %",
      round(acc.upos),
      Math.round(tokens / tagSeconds),
      "tokens/s",
    ]);
    rows.push(["tagger (gold tokens)", "XPOS %", round(acc.xpos), "", ""]);

    // 2b. The bundle's lemmatizer and FEATS tagger on gold tokens with the tagger's tags.
    const morph = pipeline.morph;
    if (morph !== null) {
      const goldMorph = dev.map((r) => morphSentence(r.sentence));
      const input = dev.map((r, k) => ({
        words: r.sentence.words.map((w) => w[FORM]!),
        upos: tags[k]!.upos,
        xpos: tags[k]!.xpos,
      }));
      const { seconds: morphSeconds } = bestOf(reps, () => input.map((x) => morph.predict(x)));
      const m = morphAccuracy(morph, goldMorph, input);
      const what = "lemmas and FEATS (gold tokens, predicted tags)";
      if (hasLemmas)
        rows.push([what, "Lemmas %", round(m.lemma), Math.round(tokens / morphSeconds), "tokens/s"]);
      rows.push([
        what,
        "UFeats %",
        round(m.ufeats),
        hasLemmas ? "" : Math.round(tokens / morphSeconds),
        hasLemmas ? "" : "tokens/s",
      ]);
    }

    // 3. Parser on gold tokens with predicted tags (parsing timed alone), and the same parser given the
    // gold tags, whose difference is the cost of tagging errors.
    const pred = parseWithTags(parser, dev, tags, reps);
    const goldTags = parseWithTags(parser, dev, tagged);
    const what = `parser, order ${parser.order} (gold tokens, predicted tags)`;
    rows.push([
      what,
      "UAS (no punct)",
      round(pred.scores.uasNoPunct),
      Math.round(tokens / pred.seconds),
      "tokens/s",
    ]);
    rows.push([
      what,
      "LAS (no punct)",
      round(pred.scores.lasNoPunct),
      Math.round(dev.length / pred.seconds),
      "sentences/s",
    ]);
    // The same parse a block at a time (as above) and sentence by sentence, interleaved.
    if (!parser.cascade.empty) {
      const times: [number[], number[]] = [[], []];
      for (let r = 0; r < reps; r++)
        for (const by of [false, true])
          times[by ? 1 : 0].push(parseWithTags(parser, dev, tags, 1, by).seconds);
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
      rows.push([
        `${what}: sentence by sentence, cascade then parser for each (median of ${reps} interleaved with blocks)`,
        "blocks faster ×",
        round(med(times[1]) / med(times[0])),
        Math.round(tokens / med(times[1])),
        "tokens/s",
      ]);
    }
    const same = `same parser (gold tokens, gold tags)`;
    rows.push([same, "UAS (no punct)", round(goldTags.scores.uasNoPunct), "", ""]);
    rows.push([same, "LAS (no punct)", round(goldTags.scores.lasNoPunct), "", ""]);
    rows.push([
      "cost of tagging errors (gold − predicted tags)",
      "UAS points",
      round(goldTags.scores.uasNoPunct - pred.scores.uasNoPunct),
      "",
      "",
    ]);

    // 4. End to end from raw text, document by document (paragraphs on new lines).
    const docs: { text: string; gold: SpannedWords }[] = [];
    let i = 0;
    while (i < dev.length) {
      let text = "";
      const g: SpannedWords = {
        spans: [],
        heads: [],
        deprels: [],
        punct: [],
        upos: [],
        ...(hasLemmas ? { lemmas: [] } : {}),
        feats: [],
      };
      let j = i;
      while (j < dev.length && (j === i || !gold[j]!.newdoc)) {
        if (j > i) text += sentenceSeparator(gold[j]!);
        const off = text.length;
        text += gold[j]!.text;
        appendWords(g, dev[j]!.sentence, gold[j]!.words, (x) => x + off);
        j++;
      }
      i = j;
      docs.push({ text, gold: g });
    }
    const { result: outputs, seconds: e2eSeconds } = bestOf(reps, () =>
      docs.map((d) => pipeline.parseText(d.text, { newlineBoundary: true })),
    );
    const { scores: e2e, words: sysWords } = scoreEndToEnd(docs, outputs);
    rows.push([
      "end to end (raw text)",
      "words F1",
      round(e2e.wordsF1),
      Math.round(sysWords / e2eSeconds),
      "tokens/s",
    ]);
    rows.push(["end to end (raw text)", "UAS F1", round(e2e.uasF1), "", ""]);
    rows.push(["end to end (raw text)", "LAS F1", round(e2e.lasF1), "", ""]);
    rows.push(["end to end (raw text)", "UAS (gold non-punct recall)", round(e2e.uasNoPunct), "", ""]);
    rows.push(["end to end (raw text)", "UPOS F1", round(e2e.uposF1 ?? 0), "", ""]);
    if (e2e.lemmasF1 !== null) rows.push(["end to end (raw text)", "Lemmas F1", round(e2e.lemmasF1), "", ""]);
    if (e2e.ufeatsF1 !== null) rows.push(["end to end (raw text)", "UFeats F1", round(e2e.ufeatsF1), "", ""]);
    ctx.table(
      `Pipeline on ${tb} dev (single thread; speeds: best of ${reps} passes)`,
      ["stage", "metric", "value", "speed", "unit"],
      rows,
    );
    if (values.compare !== undefined) compareBundles(ctx, values.model, values.compare, dev, docs, reps);
    ctx.note(
      "End-to-end scores align system words to gold words by character spans (CoNLL 2018 style) and count punctuation; 'no punct' rows exclude gold PUNCT.",
    );
  },
};

type Doc = { text: string; gold: SpannedWords };

/** End-to-end scores of the pipeline's outputs for `docs` (system words aligned by character spans). */
function scoreEndToEnd(
  docs: readonly Doc[],
  outputs: readonly (readonly AnnotatedSentence[])[],
): { scores: ReturnType<AlignedAttachmentEvaluator["scores"]>; words: number } {
  const aligned = new AlignedAttachmentEvaluator();
  let words = 0;
  docs.forEach((d, k) => {
    const s: SpannedWords = { spans: [], heads: [], deprels: [], upos: [] };
    const morph = outputs[k]!.every((a) => a.lemmas !== undefined && a.feats !== undefined);
    if (morph) {
      s.lemmas = [];
      s.feats = [];
    }
    for (const a of outputs[k]!) {
      const base = s.heads.length;
      const n = a.forms.length - 1;
      for (let m = 1; m <= n; m++) {
        s.spans.push(a.spans![2 * (m - 1)]!, a.spans![2 * (m - 1) + 1]!);
        const h = a.heads[m]!;
        s.heads.push(h === 0 ? -1 : base + h - 1);
        s.deprels.push(a.deprels[m]!);
        s.upos!.push(a.upos[m]!);
        if (morph) {
          s.lemmas!.push(a.lemmas![m]!);
          s.feats!.push(a.feats![m]!);
        }
      }
    }
    words += s.heads.length;
    aligned.add(d.text, d.gold, s);
  });
  return { scores: aligned.scores(), words };
}

/** Two bundles end to end and parser-only in one run, interleaved A B A B, median and best times. */
function compareBundles(
  ctx: BenchContext,
  modelA: string | undefined,
  modelB: string,
  dev: readonly ReadSentence[],
  docs: readonly Doc[],
  reps: number,
): void {
  const runs = [loadTaggingPipeline(modelA), loadTaggingPipeline(modelB)];
  const names = [modelA ?? "bundled", modelB];
  const tagged = dev.map((r) => taggedSentence(r.sentence));
  const tokens = dev.reduce((a, r) => a + r.sentence.words.length, 0);
  const e2eTimes: number[][] = [[], []];
  const parseTimes: number[][] = [[], []];
  const outputs: AnnotatedSentence[][][] = [[], []];
  const parsed: { scores: AttachmentScores; seconds: number }[] = [];
  const tags = runs.map((r) => tagged.map((s) => r.tagger.tag(s.words)));
  // Warm-up pass of each, then `reps` interleaved timed passes.
  for (let rep = -1; rep < reps; rep++)
    for (let i = 0; i < 2; i++) {
      const t0 = performance.now();
      const out = docs.map((d) => runs[i]!.pipeline.parseText(d.text, { newlineBoundary: true }));
      const dt = (performance.now() - t0) / 1000;
      const p = parseWithTags(runs[i]!.parser, dev, tags[i]!);
      if (rep < 0) {
        outputs[i] = out;
        parsed[i] = p;
      } else {
        e2eTimes[i]!.push(dt);
        parseTimes[i]!.push(p.seconds);
      }
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const rows = runs.map((r, i) => {
    const e = scoreEndToEnd(docs, outputs[i]!);
    const eMed = median(e2eTimes[i]!);
    const pMed = median(parseTimes[i]!);
    return [
      names[i]!,
      `order ${r.parser.order}, ${r.parser.cascade.empty ? "no cascade" : `cascade ${r.parser.cascade.name}`}`,
      round(parsed[i]!.scores.uasNoPunct),
      round(parsed[i]!.scores.lasNoPunct),
      Math.round(tokens / pMed),
      round(median(parseTimes[0]!) / pMed),
      round(e.scores.wordsF1),
      round(e.scores.uasF1),
      round(e.scores.lasF1),
      e.scores.lemmasF1 === null ? "" : round(e.scores.lemmasF1),
      e.scores.ufeatsF1 === null ? "" : round(e.scores.ufeatsF1),
      Math.round(e.words / eMed),
      round(median(e2eTimes[0]!) / eMed),
    ];
  });
  ctx.table(
    `Bundles compared in one run (${reps} interleaved timed passes after a warm-up, medians; parser on gold tokens with the bundle's own tags)`,
    [
      "bundle",
      "parser",
      "UAS-P",
      "LAS-P",
      "parse tok/s",
      "parse speed ×",
      "e2e words F1",
      "e2e UAS F1",
      "e2e LAS F1",
      "e2e Lemmas F1",
      "e2e UFeats F1",
      "e2e tok/s",
      "e2e speed ×",
    ],
    rows,
  );
}
