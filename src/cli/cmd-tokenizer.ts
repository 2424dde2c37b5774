import { basename } from "node:path";
import { readConlluFile } from "../conllu/read.js";
import type { ConlluSentence } from "../conllu/types.js";
import { VineparseError } from "../errors.js";
import { readModelFile } from "../model/model-file.js";
import { tokenizerFromModelData, writeBundleWithPart } from "../pipeline/bundle.js";
import { ENGLISH_RULES, type Segmenter } from "../pipeline/sentence-split.js";
import {
  evaluateFull,
  goldSentences,
  rawText,
  SPACINGS,
  type SpanScore,
  type Spacing,
} from "../pipeline/token-eval.js";
import { LearnedTokenizer } from "../tokenizer/learned-tokenizer.js";
import { checkWritable, writeFileAtomic } from "../util/atomic-write.js";
import { numberOption, parseCommandArgs, requireOption } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse tokenizer train --train T.conllu --out MODEL [--words model|rules] [--spacing space|none]
                                 [--lexicon yes|no] [--epochs N] [--bits B] [--seed S]
       vineparse tokenizer eval --model MODEL|rules --gold G.conllu [--spacing space|none] [--json]
       vineparse tokenizer attach --model BUNDLE --tokenizer MODEL|none --out BUNDLE2
       vineparse tokenizer text --gold G.conllu [--spacing space|none] [--out FILE]

Tokenizers and sentence splitters learned from a treebank, for languages the rule-based English
tokenizer does not fit. 'train' learns where tokens and sentences end from the raw text of a
CoNLL-U file (its '# text' comments and SpaceAfter=No; sentences of a paragraph joined by a space),
and which surface tokens are multiword tokens and their words; with --words rules the model keeps
the English rules' words and splits them into sentences by what it learned. 'eval' rebuilds each document's raw
text from gold CoNLL-U (paragraphs on lines of their own), splits and tokenizes it with a tokenizer
model or a pipeline bundle (rules: the English rules) and scores tokens, words and sentences as the
CoNLL 2018 shared task does. 'attach' writes a copy of a pipeline bundle that tokenizes raw text
with the model (or by the English rules again, with none). 'text' writes the raw text of a CoNLL-U
file as 'eval' rebuilds it (documents apart by a blank line, paragraphs on lines of their own), to
parse with 'vineparse parse --raw FILE --newline-breaks' and score with 'vineparse eval --aligned'.

options:
  --train FILE      training CoNLL-U
  --out FILE        where to write the model ('attach': the new bundle; 'text': the text, default
                    stdout)
  --words W         where the words come from: model (the default) or rules (the English rules)
  --spacing S       how the CoNLL-U's raw text is spaced: space (the default: sentences of a
                    paragraph joined by a space; a sentence without '# text' rebuilt from its
                    tokens and SpaceAfter=No) or none, for scripts written without spaces
                    (Chinese, Japanese): sentences and rebuilt tokens joined by nothing, so that
                    'train' learns to segment words and 'eval' scores that
  --lexicon yes|no  whether token boundaries also look up a lexicon of the training tokens seen
                    twice or more (default: yes with --spacing none, no otherwise)
  --epochs N        training epochs (default 8)
  --bits B          weight table bits (default 20)
  --seed S          shuffling seed (default 1)
  --model FILE      tokenizer model or pipeline bundle ('eval'; rules = the English rules), or
                    the bundle to copy ('attach')
  --tokenizer FILE  'attach': the tokenizer model to put in the bundle, or none to take it out
  --gold FILE       gold CoNLL-U for 'eval' and 'text'
  --json            print the scores as one JSON line
  -h, --help        show this help
`;

/** `vineparse tokenizer`: train, evaluate and attach learned tokenizers. */
export const command: Command = {
  summary: "learned tokenizers and sentence splitters (vineparse tokenizer train|eval|attach|text)",
  usage,
  async run(args) {
    if (args[0] === "train") return train(args.slice(1));
    if (args[0] === "eval") return evaluate(args.slice(1));
    if (args[0] === "attach") return attach(args.slice(1));
    if (args[0] === "text") return text(args.slice(1));
    throw new VineparseError("usage", "tokenizer: give train, eval, attach or text (see --help)");
  },
};

async function train(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("tokenizer train", args, {
    train: { type: "string" },
    out: { type: "string" },
    words: { type: "string" },
    epochs: { type: "string" },
    bits: { type: "string" },
    seed: { type: "string" },
    spacing: { type: "string" },
    lexicon: { type: "string" },
  });
  const spacing = spacingOption("tokenizer train", values.spacing);
  if (values.lexicon !== undefined && values.lexicon !== "yes" && values.lexicon !== "no")
    throw new VineparseError(
      "usage",
      `tokenizer train: --lexicon must be yes or no, got "${values.lexicon}"`,
    );
  const trainPath = requireOption("tokenizer train", "train", values.train);
  const outPath = requireOption("tokenizer train", "out", values.out);
  checkWritable(outPath);
  const epochs = numberOption("tokenizer train", "epochs", values.epochs, 8, { min: 1, integer: true });
  const bits = numberOption("tokenizer train", "bits", values.bits, 20, { min: 10, max: 26, integer: true });
  const seed = numberOption("tokenizer train", "seed", values.seed, 1, { integer: true });
  const wordsBy = values.words ?? "model";
  if (wordsBy !== "model" && wordsBy !== "rules")
    throw new VineparseError("usage", `tokenizer train: --words must be model or rules, got "${wordsBy}"`);
  const data = readConlluFile(trainPath, { requireTree: false, strict: true }).map((r) => r.sentence);
  if (data.length === 0) throw new VineparseError("no-training-data", "no sentences to train on", trainPath);
  if (spacing === "space" && unspacedWithoutText(data))
    process.stderr.write(
      `${trainPath}: no sentence has '# text' and the words are mostly in a script written without spaces (Han, kana); give --spacing none to learn where its words end\n`,
    );
  const t0 = performance.now();
  const model = LearnedTokenizer.train(data, {
    wordsBy,
    epochs,
    bits,
    seed,
    spacing,
    ...(values.lexicon === undefined ? {} : { lexicon: values.lexicon === "yes" }),
    onEpoch: (e, tokenErrors, sentenceErrors) =>
      process.stderr.write(
        `epoch ${e}/${epochs}: ${tokenErrors} token-boundary and ${sentenceErrors} sentence-boundary mistakes on train\n`,
      ),
  });
  model.save(outPath);
  process.stderr.write(
    `trained in ${((performance.now() - t0) / 1000).toFixed(1)} s (${model.mwt.size} multiword tokens); wrote ${outPath}\n`,
  );
  return 0;
}

async function evaluate(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("tokenizer eval", args, {
    model: { type: "string" },
    gold: { type: "string" },
    spacing: { type: "string" },
    json: { type: "boolean" },
  });
  const spacing = spacingOption("tokenizer eval", values.spacing);
  const modelPath = requireOption("tokenizer eval", "model", values.model);
  const goldPath = requireOption("tokenizer eval", "gold", values.gold);
  const segmenter: Segmenter =
    modelPath === "rules"
      ? ENGLISH_RULES
      : (tokenizerFromModelData(readModelFile(modelPath), modelPath) ?? ENGLISH_RULES);
  const gold = goldSentences(
    readConlluFile(goldPath, { requireTree: false, strict: true }).map((r) => r.sentence),
    { spacing },
  );
  const r = evaluateFull(gold, { segmenter, newlineBoundary: true });
  if (values.json === true) {
    process.stdout.write(JSON.stringify(r) + "\n");
    return 0;
  }
  const line = (name: string, s: SpanScore | null) =>
    s === null
      ? ""
      : `${name.padEnd(10)} P ${s.precision.toFixed(2).padStart(6)}  R ${s.recall.toFixed(2).padStart(6)}  F1 ${s.f1.toFixed(2).padStart(6)}  (gold ${s.gold}, system ${s.system})\n`;
  process.stdout.write(
    line("tokens", r.tokens) +
      line("words", r.words) +
      line("sentences", r.sentences) +
      `${Math.round(r.chars / Math.max(r.seconds, 1e-9))} characters/s\n`,
  );
  return 0;
}

async function attach(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("tokenizer attach", args, {
    model: { type: "string" },
    tokenizer: { type: "string" },
    out: { type: "string" },
  });
  const bundlePath = requireOption("tokenizer attach", "model", values.model);
  const tokPath = requireOption("tokenizer attach", "tokenizer", values.tokenizer);
  const out = requireOption("tokenizer attach", "out", values.out);
  checkWritable(out);
  const tokenizer = tokPath === "none" ? undefined : LearnedTokenizer.load(tokPath);
  writeBundleWithPart(bundlePath, out, { tokenizer }, basename(tokPath));
  process.stderr.write(
    `${out}: ${tokenizer === undefined ? "the English tokenizer rules" : `tokenizer ${basename(tokPath)} (${tokenizer.mwt.size} multiword tokens)`}\n`,
  );
  return 0;
}

/** The value of a --spacing option (default "space"). */
export function spacingOption(command: string, value: string | undefined): Spacing {
  const v = value ?? "space";
  if (!(SPACINGS as readonly string[]).includes(v))
    throw new VineparseError("usage", `${command}: --spacing must be space or none, got "${v}"`);
  return v as Spacing;
}

async function text(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("tokenizer text", args, {
    gold: { type: "string" },
    spacing: { type: "string" },
    out: { type: "string" },
  });
  const spacing = spacingOption("tokenizer text", values.spacing);
  const goldPath = requireOption("tokenizer text", "gold", values.gold);
  const gold = goldSentences(
    readConlluFile(goldPath, { requireTree: false }).map((r) => r.sentence),
    { spacing },
  );
  const raw = rawText(gold);
  if (values.out === undefined || values.out === "-") process.stdout.write(raw);
  else writeFileAtomic(values.out, raw);
  return 0;
}

/**
 * Whether no sentence has `# text` and most characters of the words are Han or kana: a treebank of a
 * language written without spaces whose raw text can only be rebuilt with `--spacing none`.
 */
export function unspacedWithoutText(sentences: readonly ConlluSentence[]): boolean {
  let cjk = 0;
  let all = 0;
  for (const s of sentences) {
    if (s.lines.some((l) => l.startsWith("# text = "))) return false;
    for (const w of s.words)
      for (const ch of w[1]!) {
        all++;
        if (UNSPACED_SCRIPT.test(ch)) cjk++;
      }
  }
  return all > 0 && 2 * cjk > all;
}

const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
