import { type AlignedFileScores, evaluateAligned } from "../eval/aligned-files.js";
import { type AttachmentScores, evaluateFiles, readInput } from "../eval/attachment.js";
import { parseConllu } from "../conllu/read.js";
import { round } from "../eval/percent.js";
import { formatTable } from "../eval/table.js";
import { parseCommandArgs, requireOption, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse eval --gold G.conllu --system S.conllu [--aligned] [--json]

Scores a parsed CoNLL-U file against the gold file: UAS and LAS (all tokens and without
punctuation, i.e. gold UPOS PUNCT), unlabelled and labelled exact match. Relations are compared
in full (subtypes included). Both files must hold the same sentences with the same words.

With --aligned the system file may cut the same text into other sentences, tokens and words (a
parse of raw text, 'vineparse parse --raw'), and is scored as the CoNLL 2018 shared task scores
it: both files must spell the same text once white space is taken out ('# text', or the tokens
when a sentence has none); tokens, words and sentences match when their spans in that text are
equal, and a word's head is right when it is the word aligned to the gold head. Prints precision,
recall and F1 of tokens, sentences, words and UAS / LAS, and F1 of UPOS, UFeats and lemmas (not
for a gold file without lemmas).

options:
  --gold FILE    gold-standard CoNLL-U ("-" = stdin)
  --system FILE  system output CoNLL-U ("-" = stdin)
  --aligned      align the system's words to the gold words by their text (see above)
  --json         print one JSON object instead of a table
  -h, --help     show this help
`;

/** The scores as printed by `eval --json`: percentages rounded to 2 decimals. */
export function evalJson(s: AttachmentScores): Record<string, number> {
  return {
    sentences: s.sentences,
    tokens: s.tokens,
    tokensNoPunct: s.tokensNoPunct,
    uas: round(s.uas),
    las: round(s.las),
    uasNoPunct: round(s.uasNoPunct),
    lasNoPunct: round(s.lasNoPunct),
    exactMatch: round(s.exactMatch),
    labelledExactMatch: round(s.labelledExactMatch),
    exactMatchNoPunct: round(s.exactMatchNoPunct),
    labelledExactMatchNoPunct: round(s.labelledExactMatchNoPunct),
  };
}

/** `vineparse eval`: attachment scores of a system file against gold. */
export const command: Command = {
  summary: "attachment scores (UAS/LAS, exact match) of a parsed file against gold",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("eval", args, {
      gold: { type: "string" },
      system: { type: "string" },
      json: { type: "boolean" },
      aligned: { type: "boolean" },
    });
    const gold = requireOption("eval", "gold", values.gold);
    const system = requireOption("eval", "system", values.system);
    if (gold === "-" && system === "-")
      throw new UsageError("eval: --gold and --system cannot both be stdin");
    if (values.aligned === true)
      return printAligned(evaluateAlignedFiles(gold, system), values.json === true);
    const s = evaluateFiles(gold, system);
    if (values.json === true) {
      process.stdout.write(JSON.stringify(evalJson(s)) + "\n");
      return 0;
    }
    const rows = [
      ["UAS", round(s.uas), round(s.uasNoPunct)],
      ["LAS", round(s.las), round(s.lasNoPunct)],
      ["exact match", round(s.exactMatch), round(s.exactMatchNoPunct)],
      ["labelled exact match", round(s.labelledExactMatch), round(s.labelledExactMatchNoPunct)],
    ].map((r) => r.map((c) => (typeof c === "number" ? c.toFixed(2) : c)));
    rows.push(["tokens", String(s.tokens), String(s.tokensNoPunct)]);
    rows.push(["sentences", String(s.sentences), String(s.sentences)]);
    process.stdout.write(formatTable(["metric", "all", "no punct"], rows));
    return 0;
  },
};

/** `evaluateAligned` over two files (either may be "-" for stdin; the gold file read strictly). */
function evaluateAlignedFiles(goldPath: string, systemPath: string): AlignedFileScores {
  const [goldText, goldName] = readInput(goldPath);
  const [systemText, systemName] = readInput(systemPath);
  return evaluateAligned(
    [...parseConllu(goldText, goldName, { requireTree: false })],
    [...parseConllu(systemText, systemName, { strict: false, requireTree: false })],
  );
}

/** Prints `eval --aligned`'s scores as a table or one JSON object. */
function printAligned(s: AlignedFileScores, json: boolean): number {
  const f1 = (v: number | null) => (v === null ? null : round(v));
  const prf = (correct: number) => ({
    precision: s.systemWords === 0 ? 0 : round((100 * correct) / s.systemWords),
    recall: s.goldWords === 0 ? 0 : round((100 * correct) / s.goldWords),
    f1: round((200 * correct) / Math.max(1, s.goldWords + s.systemWords)),
  });
  const span = (x: AlignedFileScores["tokens"]) => ({
    precision: round(x.precision),
    recall: round(x.recall),
    f1: round(x.f1),
  });
  const scores = {
    tokens: span(s.tokens),
    sentences: span(s.sentences),
    words: span(s.words),
    upos: f1(s.uposF1),
    ufeats: f1(s.ufeatsF1),
    lemmas: f1(s.lemmasF1),
    uas: prf(s.uasCorrect),
    las: prf(s.lasCorrect),
    uasNoPunct: round(s.uasNoPunct),
    lasNoPunct: round(s.lasNoPunct),
    goldWords: s.goldWords,
    systemWords: s.systemWords,
  };
  if (json) {
    process.stdout.write(JSON.stringify(scores) + "\n");
    return 0;
  }
  const fmt = (v: number | null) => (v === null ? "" : v.toFixed(2));
  const rows: string[][] = [
    ["tokens", ...[scores.tokens.precision, scores.tokens.recall, scores.tokens.f1].map(fmt)],
    ["sentences", ...[scores.sentences.precision, scores.sentences.recall, scores.sentences.f1].map(fmt)],
    ["words", ...[scores.words.precision, scores.words.recall, scores.words.f1].map(fmt)],
    ["UPOS", "", "", fmt(scores.upos)],
    ["UFeats", "", "", fmt(scores.ufeats)],
  ];
  if (scores.lemmas !== null) rows.push(["lemmas", "", "", fmt(scores.lemmas)]);
  rows.push(["UAS", ...[scores.uas.precision, scores.uas.recall, scores.uas.f1].map(fmt)]);
  rows.push(["LAS", ...[scores.las.precision, scores.las.recall, scores.las.f1].map(fmt)]);
  rows.push(["UAS, gold words but punctuation", "", fmt(scores.uasNoPunct), ""]);
  rows.push(["LAS, gold words but punctuation", "", fmt(scores.lasNoPunct), ""]);
  process.stdout.write(formatTable(["metric", "precision", "recall", "F1"], rows));
  process.stdout.write(`${s.goldWords} gold and ${s.systemWords} system words over ${s.chars} characters\n`);
  return 0;
}
