import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import type { ConlluSentence } from "../src/conllu/types.js";
import { VineparseError } from "../src/errors.js";
import { writeModelFile } from "../src/model/model-file.js";
import { MorphModel, morphSentence } from "../src/morph/morph-model.js";
import { writeBundle } from "../src/pipeline/bundle.js";
import { loadPipeline, loadSegmenter } from "../src/pipeline/default-model.js";
import { ENGLISH_RULES, segmentText } from "../src/pipeline/sentence-split.js";
import { segmentStream } from "../src/pipeline/text-stream.js";
import { evaluateFull, goldSentences } from "../src/pipeline/token-eval.js";
import { LearnedTokenizer } from "../src/tokenizer/learned-tokenizer.js";
import { morphToy } from "./morph-toy.js";
import { tokenizerToy } from "./tokenizer-toy.js";
import { runCli, trainToyPair } from "./toy-models.js";

const dir = mkdtempSync(join(tmpdir(), "vp-tokenizer-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const sentences = (text: string): ConlluSentence[] =>
  [...parseConllu(text, "toy", { requireTree: false })].map((r) => r.sentence);
const trainText = tokenizerToy(400, 1, "tisch");
const devText = tokenizerToy(80, 2);
const trainPath = join(dir, "train.conllu");
const devPath = join(dir, "dev.conllu");
writeFileSync(trainPath, trainText);
writeFileSync(devPath, devText);
const model = LearnedTokenizer.train(sentences(trainText), { epochs: 6, bits: 16 });

/** Surface forms of each sentence of raw text as a segmenter cuts it. */
function cut(text: string, seg = model): string[][] {
  return segmentText(text, { segmenter: seg }).map((s) => s.tokens.map((t) => text.slice(t.start, t.end)));
}

test("learns the toy language's tokens, words and sentences (CoNLL 2018 scores on held-out text)", () => {
  const gold = goldSentences(sentences(devText));
  const learned = evaluateFull(gold, { segmenter: model, newlineBoundary: true });
  assert.ok(learned.tokens.f1 >= 99.5, `tokens ${learned.tokens.f1}`);
  assert.ok(learned.words.f1 >= 99.5, `words ${learned.words.f1}`);
  assert.ok(learned.sentences!.f1 >= 99, `sentences ${learned.sentences!.f1}`);
  // An untrained model cuts only at white space and never ends a sentence inside a paragraph.
  const bits = 16;
  const zero = new LearnedTokenizer(
    bits,
    new Int16Array(1 << bits),
    new Int16Array(1 << bits),
    new Map(),
    new Map(),
  );
  const untrained = evaluateFull(gold, { segmenter: zero, newlineBoundary: true });
  assert.ok(untrained.tokens.f1 < 85, `untrained tokens ${untrained.tokens.f1}`);
  assert.ok(untrained.sentences!.f1 < 60, `untrained sentences ${untrained.sentences!.f1}`);
});

test("hand-worked cases: clitics, commas, abbreviations, sentence ends and multiword tokens", () => {
  const text = "Haus geht's bzw. baum, und zum wald. Zum fluss steht's!";
  assert.deepEqual(cut(text), [
    ["Haus", "geht", "'s", "bzw.", "baum", ",", "und", "zum", "wald", "."],
    ["Zum", "fluss", "steht", "'s", "!"],
  ]);
  const [first, second] = segmentText(text, { segmenter: model });
  // "zum" is one surface token of two words; "Zum" gets the same split, capitalised.
  const zum = first!.tokens[7]!;
  assert.deepEqual(
    first!.words.slice(zum.firstWord, zum.lastWord + 1).map((w) => w.form),
    ["zu", "dem"],
  );
  const zum2 = second!.tokens[0]!;
  assert.deepEqual(
    second!.words.slice(zum2.firstWord, zum2.lastWord + 1).map((w) => w.form),
    ["Zu", "dem"],
  );
  // A multiword token's words lie inside it: "zu" is spelled out, "dem" takes the rest.
  const [w1, w2] = first!.words.slice(zum.firstWord, zum.lastWord + 1);
  assert.deepEqual(
    [w1!.start, w1!.end, w2!.start, w2!.end],
    [zum.start, zum.start + 2, zum.start + 2, zum.end],
  );
  assert.equal(w1!.spaceAfter, false);
  assert.equal(w2!.spaceAfter, true);
  // The English rules split the abbreviation and keep "zum" whole.
  const rules = segmentText(text, { segmenter: ENGLISH_RULES })[0]!;
  assert.ok(rules.words.some((w) => w.form === "bzw"));
});

test("words inside a token: split where the model finds a known tail, even on a stem never seen with it", () => {
  const text = "Tischli steht bzw. hausli. Hausla bleibt.";
  const [a, b] = segmentText(text, { segmenter: model });
  assert.deepEqual(
    a!.words.map((w) => w.form),
    ["Tisch", "li", "steht", "bzw.", "haus", "li", "."],
  );
  // "tischli" is one surface token of two words, each spelled out.
  const t = a!.tokens[0]!;
  assert.deepEqual([t.start, t.end, t.firstWord, t.lastWord], [0, 7, 0, 1]);
  assert.deepEqual(
    a!.words.slice(0, 2).map((w) => [w.start, w.end, w.spaceAfter]),
    [
      [0, 5, false],
      [5, 7, true],
    ],
  );
  // "la" never followed a word inside a token in training: no split, whatever the model says.
  assert.equal(b!.words[0]!.form, "Hausla");
  assert.ok(model.tails.has("li") && !model.tails.has("la"));
  // A model without the in-token weights splits by its dictionary alone.
  const noWords = new LearnedTokenizer(
    model.bits,
    model.tokenWeights,
    model.sentenceWeights,
    model.mwt,
    model.mwtLower,
    "model",
    null,
    model.tails,
  );
  assert.deepEqual(
    segmentText("Tischli steht.", { segmenter: noWords })[0]!.words.map((w) => w.form),
    ["Tischli", "steht", "."],
  );
});

test("gold sentences: in-token word boundaries of the multiword tokens their words spell out", () => {
  const row = (id: string, form: string, misc = "_") => `${id}\t${form}\t_\tX\t_\t_\t0\tdep\t_\t${misc}`;
  const conllu =
    "# text = Bu kökenli στο zum.\n" +
    [
      row("1", "Bu"),
      row("2-3", "kökenli"),
      row("2", "köken"),
      row("3", "li"),
      row("4-5", "στο"),
      row("4", "σε"),
      row("5", "το"),
      row("6-7", "zum", "SpaceAfter=No"),
      row("6", "zu"),
      row("7", "dem"),
      row("8", "."),
    ].join("\n") +
    "\n\n";
  const [g] = goldSentences(sentences(conllu));
  // "kökenli" (3..10) splits after "köken"; "στο" and "zum" are not spelled out by their words.
  assert.deepEqual(g!.innerSplits, [8]);
  assert.deepEqual(g!.tokens, [0, 2, 3, 10, 11, 14, 15, 18, 18, 19]);
  // Their words stay inside them: "σε" is cut to the token's first two characters, "το" ends with it.
  assert.deepEqual(g!.words.slice(6, 10), [11, 13, 13, 14]);
  assert.deepEqual(g!.words.slice(10, 14), [15, 17, 17, 18]);
});

test("multiword tokens: the majority analysis, exact forms first, then lowercased ones recased", () => {
  const row = (id: string, form: string, misc = "_") => `${id}\t${form}\t_\tX\t_\t_\t0\tdep\t_\t${misc}`;
  const sent = (text: string, rows: string[]) => `# text = ${text}\n${rows.join("\n")}\n\n`;
  const data =
    // "im" is split twice and left whole once: split. "am" is split once and whole twice: kept.
    sent("im im im", [
      row("1-2", "im"),
      row("1", "in"),
      row("2", "dem"),
      row("3-4", "im"),
      row("3", "in"),
      row("4", "dem"),
      row("5", "im"),
    ]) +
    sent("am am am", [row("1-2", "am"), row("1", "an"), row("2", "dem"), row("3", "am"), row("4", "am")]) +
    // "Beim" is seen only capitalised.
    sent("Beim", [row("1-2", "Beim"), row("1", "Bei"), row("2", "dem")]);
  const m = LearnedTokenizer.train(sentences(data), { epochs: 1, bits: 10 });
  assert.deepEqual(m.splitToken("im"), ["in", "dem"]);
  assert.equal(m.splitToken("am"), null);
  assert.deepEqual(m.splitToken("Beim"), ["Bei", "dem"]);
  assert.deepEqual(m.splitToken("beim"), ["bei", "dem"]);
  assert.deepEqual(m.splitToken("IM"), ["IN", "DEM"]);
  assert.deepEqual(m.splitToken("Im"), ["In", "dem"]);
  assert.equal(m.splitToken("imm"), null);
});

test("offsets stay in the whole text, surrogate pairs are never cut, and the words tile the tokens", () => {
  const prefix = "xx\u{1F600}y ";
  const body = "Haus\u{1F600}baum geht's, zum wald.";
  const text = prefix + body + " tail";
  const start = prefix.length;
  const end = start + body.length;
  const tok = model.tokenize(text, start, end);
  for (const t of tok.tokens) {
    assert.ok(t.start >= start && t.end <= end);
    const c = text.charCodeAt(t.start);
    assert.ok(!(c >= 0xdc00 && c <= 0xdfff), "a token starts inside a surrogate pair");
    const words = tok.words.slice(t.firstWord, t.lastWord + 1);
    assert.equal(words[0]!.start, t.start);
    assert.equal(words[words.length - 1]!.end, t.end);
    if (words.length === 1) assert.equal(words[0]!.form, text.slice(t.start, t.end));
  }
  assert.deepEqual(model.sentenceStarts(text, { words: [], tokens: [] }), []);
  assert.deepEqual(model.tokenize("   \n  ").tokens, []);
});

test("words by the English rules: their tokens, cut into sentences by the learned splitter", () => {
  const hybrid = model.withWordsBy("rules");
  const text = "Haus geht's bzw. baum. Zum wald! Katze bleibt.";
  const tok = hybrid.tokenize(text, 0, text.length);
  assert.deepEqual(tok, ENGLISH_RULES.tokenize(text, 0, text.length));
  const spans: number[] = [];
  for (const t of tok.tokens) spans.push(t.start, t.end);
  assert.deepEqual(
    hybrid.sentenceStarts(text, tok),
    model.sentenceEnds(text, spans, text.length).map((t) => tok.tokens[t]!.lastWord + 1),
  );
  // The rules cut "bzw." into "bzw" + ".", which this splitter, trained on the model's tokens, reads
  // as a sentence end; without it the three sentences come out.
  assert.equal(segmentText(text, { segmenter: hybrid }).length, 4);
  assert.equal(segmentText("Haus geht's baum. Zum wald! Katze bleibt.", { segmenter: hybrid }).length, 3);
  const path = join(dir, "hybrid.tok");
  hybrid.save(path);
  assert.equal(LearnedTokenizer.load(path).wordsBy, "rules");
});

test("a stream cut inside a long paragraph gives the sentences of the whole text", async () => {
  // One paragraph of the held-out text, streamed in small pieces and cut every 300 characters.
  const text = goldSentences(sentences(devText))
    .map((g) => g.text)
    .join(" ");
  const whole = segmentText(text, { segmenter: model }).map((s) => [
    s.start,
    s.end,
    s.words.map((w) => [w.form, w.start, w.end]),
  ]);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 97) pieces.push(text.slice(i, i + 97));
  const streamed = [];
  for await (const { offset, sentence: s } of segmentStream(pieces, { segmenter: model, chunkChars: 300 }))
    streamed.push([
      s.start + offset,
      s.end + offset,
      s.words.map((w) => [w.form, w.start + offset, w.end + offset]),
    ]);
  assert.ok(whole.length > 50);
  assert.deepEqual(streamed, whole);
});

test("model files: the round trip tokenizes the same; damaged or foreign files give one line naming them", () => {
  const path = join(dir, "toy.tok");
  model.save(path);
  const back = LearnedTokenizer.load(path);
  const gold = goldSentences(sentences(devText));
  const a = evaluateFull(gold, { segmenter: model, newlineBoundary: true });
  const b = evaluateFull(gold, { segmenter: back, newlineBoundary: true });
  assert.deepEqual([b.tokens, b.words, b.sentences], [a.tokens, a.words, a.sentences]);
  const text = gold.map((g) => g.text).join(" ");
  assert.deepEqual(cut(text, back), cut(text));
  const bytes = readFileSync(path);
  const damaged = join(dir, "damaged.tok");
  writeFileSync(damaged, bytes.subarray(0, bytes.length - 9));
  assert.throws(
    () => LearnedTokenizer.load(damaged),
    (e: unknown) =>
      e instanceof VineparseError && e.message.includes("damaged.tok") && !e.message.includes("\n"),
  );
  // The tables load packed and expand on first read, to the same weights; one whose indices run past
  // the table is refused at load, with one line naming the file, not later at its first read.
  assert.deepEqual(back.sentenceWeights, model.sentenceWeights);
  assert.deepEqual(back.tokenWeights, model.tokenWeights);
  const data = model.toModelData();
  const delta = (data.arrays.sentenceDelta as Uint32Array).slice();
  delta[delta.length - 1] = 1 << model.bits;
  const outside = join(dir, "outside.tok");
  writeModelFile(outside, { ...data, arrays: { ...data.arrays, sentenceDelta: delta } });
  assert.throws(
    () => LearnedTokenizer.load(outside),
    (e: unknown) =>
      e instanceof VineparseError && e.message.includes("outside.tok") && !e.message.includes("\n"),
  );
  const morphPath = join(dir, "toy.morph");
  MorphModel.train(
    [...parseConllu(morphToy(40, 3))].map((r) => morphSentence(r.sentence)),
    { epochs: 1, bits: 10 },
  ).save(morphPath);
  assert.throws(
    () => LearnedTokenizer.load(morphPath),
    (e: unknown) => e instanceof VineparseError && e.message.includes("toy.morph"),
  );
});

// A toy tagger and parser, bundled with and without the tokenizer.
const { tagger, parser } = trainToyPair(morphToy(200, 1));
const withTok = join(dir, "with.vpm");
const without = join(dir, "without.vpm");
writeBundle(withTok, { tagger, parser, tokenizer: model, info: { treebank: "toy" } });
writeBundle(without, { tagger, parser, info: { treebank: "toy" } });
const raw = "Haus geht's bzw. baum, und zum wald. Zum fluss steht's!\n\nKatze bleibt bzw. liegt hier.";

test("a bundle's tokenizer cuts raw text in the pipeline; without one the English rules do", () => {
  const p = loadPipeline(withTok);
  const out = p.parseText(raw);
  const expected = segmentText(raw, { segmenter: model });
  assert.equal(out.length, expected.length);
  for (let i = 0; i < out.length; i++)
    assert.deepEqual(
      out[i]!.forms.slice(1),
      expected[i]!.words.map((w) => w.form),
    );
  assert.ok(out[0]!.forms.includes("bzw."));
  assert.ok(out[0]!.conllu.lines.some((l) => l.startsWith("8-9\tzum\t")));
  assert.ok(loadSegmenter(withTok) instanceof LearnedTokenizer);
  assert.equal(loadSegmenter(without), ENGLISH_RULES);
  assert.ok(!loadPipeline(without).parseText(raw)[0]!.forms.includes("bzw."));
});

test("CLI: tokenizer train, eval and attach; parse uses the attached tokenizer, on one thread or two", () => {
  const tok = join(dir, "cli.tok");
  const trained = runCli([
    "tokenizer",
    "train",
    "--train",
    trainPath,
    "--out",
    tok,
    "--epochs",
    "6",
    "--bits",
    "16",
  ]);
  assert.equal(trained.status, 0, trained.stderr);
  const ev = runCli(["tokenizer", "eval", "--model", tok, "--gold", devPath, "--json"]);
  assert.equal(ev.status, 0, ev.stderr);
  const scores = JSON.parse(ev.stdout) as { tokens: { f1: number }; sentences: { f1: number } };
  assert.ok(scores.tokens.f1 >= 99.5 && scores.sentences.f1 >= 99);
  const rules = JSON.parse(
    runCli(["tokenizer", "eval", "--model", "rules", "--gold", devPath, "--json"]).stdout,
  ) as {
    tokens: { f1: number };
  };
  assert.ok(rules.tokens.f1 < scores.tokens.f1);
  const attached = join(dir, "attached.vpm");
  const at = runCli(["tokenizer", "attach", "--model", without, "--tokenizer", tok, "--out", attached]);
  assert.equal(at.status, 0, at.stderr);
  // The bundle's own tokenizer evaluates as the model file does.
  const evB = JSON.parse(
    runCli(["tokenizer", "eval", "--model", attached, "--gold", devPath, "--json"]).stdout,
  ) as {
    tokens: { f1: number };
  };
  assert.equal(evB.tokens.f1, scores.tokens.f1);
  const one = runCli(["parse", "--model", attached, "--text", raw, "--quiet"]);
  assert.equal(one.status, 0, one.stderr);
  assert.match(one.stdout, /\tbzw\.\t/);
  assert.match(one.stdout, /^8-9\tzum\t/m);
  const two = runCli(["parse", "--model", attached, "--text", raw, "--quiet", "--threads", "2"]);
  assert.equal(two.status, 0, two.stderr);
  assert.equal(two.stdout, one.stdout);
  // Attaching a morph model keeps the tokenizer.
  const withMorph = join(dir, "with-morph.vpm");
  const morphPath = join(dir, "cli.morph");
  MorphModel.train(
    [...parseConllu(morphToy(40, 3))].map((r) => morphSentence(r.sentence)),
    { epochs: 1, bits: 10 },
  ).save(morphPath);
  assert.equal(
    runCli(["morph", "attach", "--model", attached, "--morph", morphPath, "--out", withMorph]).status,
    0,
  );
  assert.equal(
    runCli(["parse", "--model", withMorph, "--text", raw, "--quiet", "--morph", "never"]).stdout,
    one.stdout,
  );
  // Taken out again: the English rules.
  const removed = join(dir, "removed.vpm");
  assert.equal(
    runCli(["tokenizer", "attach", "--model", attached, "--tokenizer", "none", "--out", removed]).status,
    0,
  );
  assert.doesNotMatch(runCli(["parse", "--model", removed, "--text", raw, "--quiet"]).stdout, /\tbzw\.\t/);
  // A missing subcommand is a usage error.
  assert.equal(runCli(["tokenizer"]).status, 2);
});
