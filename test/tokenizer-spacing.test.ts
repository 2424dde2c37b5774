import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import type { ConlluSentence } from "../src/conllu/types.js";
import { segmentText } from "../src/pipeline/sentence-split.js";
import {
  evaluateFull,
  goldSentences,
  sentenceSeparator,
  treebankSpacing,
} from "../src/pipeline/token-eval.js";
import { Extractor, LearnedTokenizer, lexiconHash, PAD } from "../src/tokenizer/learned-tokenizer.js";
import { Rng } from "../src/util/rng.js";
import { unspacedWithoutText } from "../src/cli/cmd-tokenizer.js";
import { runCli } from "./toy-models.js";

const dir = mkdtempSync(join(tmpdir(), "vp-spacing-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const sentences = (text: string): ConlluSentence[] =>
  [...parseConllu(text, "toy", { requireTree: false })].map((r) => r.sentence);

/**
 * A toy language written without spaces, as a treebank copy without `# text` or SpaceAfter (as zh_gsd's
 * copy here is): words of one to three characters from a small lexicon whose words share characters
 * (中国 and 国家, 大学 and 学生), so that where a word ends is not given by its characters alone;
 * sentences of 3–8 words, sometimes a "，", always ending in "。".
 */
function spacelessToy(count: number, seed: number): string {
  const rng = new Rng(seed);
  const lexicon = [
    "中国", "国家", "人民", "民主", "大学", "学生", "生活", "我们", "他", "的", "是", "在", "了",
    "好", "看", "书", "图书馆", "银行", "行人", "人", "大", "学", "家",
  ]; // prettier-ignore
  const out: string[] = [];
  for (let s = 0; s < count; s++) {
    const forms: string[] = [];
    const len = 3 + rng.int(6);
    for (let i = 0; i < len; i++) {
      forms.push(lexicon[rng.int(lexicon.length)]!);
      if (i < len - 1 && rng.next() < 0.1) forms.push("，");
    }
    forms.push("。");
    const rows = forms.map((f, k) => `${k + 1}\t${f}\t_\tX\t_\t_\t${k}\t${k === 0 ? "root" : "dep"}\t_\t_`);
    out.push(`# sent_id = z${seed}-${s + 1}\n${rows.join("\n")}\n`);
  }
  return out.join("\n") + "\n";
}

test("unspacedWithoutText: Han or kana without # text", () => {
  assert.equal(unspacedWithoutText(sentences(spacelessToy(5, 3))), true);
  const withText = spacelessToy(5, 3).replace("# sent_id = z3-1", "# sent_id = z3-1\n# text = 我们是学生。");
  assert.equal(unspacedWithoutText(sentences(withText)), false);
  const latin = "1\tHaus\t_\tNOUN\t_\t_\t0\troot\t_\t_\n\n";
  assert.equal(unspacedWithoutText(sentences(latin)), false);
});

test("treebankSpacing: no spaces for the languages written without them", () => {
  assert.equal(treebankSpacing("zh_gsd"), "none");
  assert.equal(treebankSpacing("ja_gsd"), "none");
  assert.equal(treebankSpacing("/data/UD_Chinese-GSD/zh_gsd-ud-train.conllu"), "none");
  assert.equal(treebankSpacing("en_ewt"), "space");
  assert.equal(treebankSpacing("hu_szeged"), "space");
  assert.equal(treebankSpacing("train.conllu"), "space");
});

test("goldSentences rebuilds a missing # text from the surface tokens, as spacing says", () => {
  const conllu = [
    "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_",
    "1\tzu\t_\tADP\t_\t_\t3\tcase\t_\t_",
    "2\tdem\t_\tDET\t_\t_\t3\tdet\t_\t_",
    "3\tHaus\t_\tNOUN\t_\t_\t0\troot\t_\tSpaceAfter=No",
    "4\t.\t_\tPUNCT\t_\t_\t3\tpunct\t_\t_",
    "",
    "1\tJa\t_\tINTJ\t_\t_\t0\troot\t_\t_",
    "",
  ].join("\n");
  const [a, b] = goldSentences(sentences(conllu));
  // The multiword token's own form, not its words'; no space before the period (SpaceAfter=No).
  assert.equal(a!.text, "zum Haus.");
  assert.deepEqual(a!.tokens, [0, 3, 4, 8, 8, 9]);
  assert.deepEqual(a!.words, [0, 2, 2, 3, 4, 8, 8, 9]);
  assert.equal(sentenceSeparator(b!), " ");
  const [c, d] = goldSentences(sentences(conllu), { spacing: "none" });
  assert.equal(c!.text, "zumHaus.");
  assert.deepEqual(c!.tokens, [0, 3, 3, 7, 7, 8]);
  assert.equal(sentenceSeparator(d!), "");
  assert.equal(d!.text, "Ja");
  // A sentence's own # text wins over either spacing.
  const [e] = goldSentences(sentences(`# text = zum  Haus.\n${conllu.split("\n\n")[0]}\n\n`), {
    spacing: "none",
  });
  assert.equal(e!.text, "zum  Haus.");
  assert.deepEqual(e!.tokens, [0, 3, 5, 9, 9, 10]);
});

const trainText = spacelessToy(500, 1);
const devText = spacelessToy(100, 2);

test("a tokenizer trained with spacing none segments words in text without spaces", () => {
  const gold = goldSentences(sentences(devText), { spacing: "none" });
  assert.ok(!gold.some((g) => /\s/.test(g.text)), "the rebuilt text has no white space");
  const model = LearnedTokenizer.train(sentences(trainText), { epochs: 6, bits: 16, spacing: "none" });
  const r = evaluateFull(gold, { segmenter: model, newlineBoundary: true });
  assert.ok(r.words.f1 >= 95, `words ${r.words.f1}`);
  assert.ok(r.sentences!.f1 >= 98, `sentences ${r.sentences!.f1}`);
  // Trained on the text with spaces between words (the default spacing), it has never seen two words
  // written together, and leaves runs of characters whole.
  const spaced = LearnedTokenizer.train(sentences(trainText), { epochs: 6, bits: 16 });
  const s = evaluateFull(gold, { segmenter: spaced, newlineBoundary: true });
  assert.ok(s.words.f1 < 60, `trained with spaces: words ${s.words.f1}`);
  // Hand-worked: 学生 is a word, and so is 大学, so 大学生 is cut by its context.
  const text = "我们是学生。他在图书馆看书。";
  const cut = segmentText(text, { segmenter: model }).map((x) => x.words.map((w) => w.form));
  assert.deepEqual(cut, [
    ["我们", "是", "学生", "。"],
    ["他", "在", "图书馆", "看", "书", "。"],
  ]);
});

test("the lexicon: training tokens seen twice or more, up to four characters; stored as version 2", () => {
  // The toy's words, all frequent, and some of its own: 长江 once, 黄河 twice, 图书馆员工 (five
  // characters) twice.
  const row = (k: number, f: string) => `${k}\t${f}\t_\tX\t_\t_\t${k - 1}\t${k === 1 ? "root" : "dep"}\t_\t_`;
  const extra = [
    ["长江", "是", "好", "。"],
    ["黄河", "是", "图书馆员工", "。"],
    ["黄河", "的", "图书馆员工", "。"],
  ]
    .map((forms) => forms.map((f, i) => row(i + 1, f)).join("\n") + "\n")
    .join("\n");
  const text = `${trainText}${extra}\n`;
  const model = LearnedTokenizer.train(sentences(text), { epochs: 2, bits: 16, spacing: "none" });
  const counts = new Map<string, number>();
  for (const s of sentences(text))
    for (const w of s.words) if ([...w[1]!].length <= 4) counts.set(w[1]!, (counts.get(w[1]!) ?? 0) + 1);
  const expected = [...counts.values()].filter((c) => c >= 2).length;
  assert.ok(expected < counts.size, "some tokens are seen once");
  assert.equal(model.lexicon!.length, expected);
  const path = join(dir, "lex.vpt");
  model.save(path);
  const back = LearnedTokenizer.load(path);
  assert.deepEqual(back.lexicon, model.lexicon);
  assert.equal(back.toModelData().meta.version, 2);
  const raw = "我们是学生。他在图书馆看书。大学生在银行看书，中国人民好。";
  assert.deepEqual(back.tokenSpans(raw), model.tokenSpans(raw));
  // Without the lexicon (the default for spaced text) a model keeps the first layout.
  const plain = LearnedTokenizer.train(sentences(trainText), {
    epochs: 2,
    bits: 16,
    spacing: "none",
    lexicon: false,
  });
  assert.equal(plain.lexicon, null);
  assert.equal(plain.toModelData().meta.version, 1);
  assert.equal(LearnedTokenizer.train(sentences(trainText), { epochs: 1, bits: 16 }).lexicon, null);
});

test("CLI: tokenizer train and eval take --spacing", () => {
  const train = join(dir, "train.conllu");
  const dev = join(dir, "dev.conllu");
  const tok = join(dir, "zh.vpt");
  writeFileSync(train, trainText);
  writeFileSync(dev, devText);
  const t = runCli([
    "tokenizer",
    "train",
    "--train",
    train,
    "--out",
    tok,
    "--spacing",
    "none",
    "--epochs",
    "4",
  ]);
  assert.equal(t.status, 0, t.stderr);
  assert.doesNotMatch(t.stderr, /give --spacing none/);
  // Without it, a hint: the file has no # text and is written in Han.
  const hint = runCli([
    "tokenizer",
    "train",
    "--train",
    train,
    "--out",
    join(dir, "spaced.vpt"),
    "--epochs",
    "1",
  ]);
  assert.equal(hint.status, 0, hint.stderr);
  assert.match(hint.stderr, /no sentence has '# text' .* give --spacing none/);
  const none = JSON.parse(
    runCli(["tokenizer", "eval", "--model", tok, "--gold", dev, "--spacing", "none", "--json"]).stdout,
  ) as { words: { f1: number } };
  assert.ok(none.words.f1 >= 95, `words ${none.words.f1}`);
  // Scored on the text rebuilt with spaces, every word is cut by the spaces alone.
  const spaced = JSON.parse(
    runCli(["tokenizer", "eval", "--model", tok, "--gold", dev, "--json"]).stdout,
  ) as {
    words: { f1: number };
  };
  assert.ok(spaced.words.f1 > 99, `spaced words ${spaced.words.f1}`);
  const bad = runCli(["tokenizer", "eval", "--model", tok, "--gold", dev, "--spacing", "tabs"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--spacing must be space or none/);
  assert.equal(bad.stderr.trim().split("\n").length, 1);
});

test("lexicon features against brute force: words ending before, starting after and spanning each place", () => {
  const rng = new Rng(7);
  const alphabet = ["a", "b", "中", "国", " "];
  for (let round = 0; round < 40; round++) {
    let text = "";
    const len = 5 + rng.int(40);
    for (let i = 0; i < len; i++) text += alphabet[rng.int(alphabet.length)];
    // A lexicon of random pieces of the text without spaces, of 1 to 5 characters.
    const words = new Set<string>();
    for (let w = 0; w < 8; w++) {
      const s = rng.int(text.length);
      const piece = text.slice(s, s + 1 + rng.int(5));
      if (!/\s/.test(piece)) words.add(piece);
    }
    const ex = new Extractor(0xffff, new Set([...words].map((w) => lexiconHash(w, 0, w.length))));
    ex.load(text, 0, text.length);
    const known = (s: number, e: number) =>
      s >= 0 && e <= text.length && e - s <= 4 && !/\s/.test(text.slice(s, e)) && words.has(text.slice(s, e));
    let chunkLen = 0;
    for (let p = 0; p + 1 < text.length; p++) {
      chunkLen = /\s/.test(text[p]!) ? 0 : chunkLen + 1;
      if (chunkLen === 0 || /\s/.test(text[p + 1]!)) continue;
      ex.lexiconAt(p + PAD, chunkLen);
      let ends = 0;
      let starts = 0;
      let spans = 0;
      for (let l = 1; l <= 4; l++) {
        if (known(p - l + 1, p + 1)) ends |= 1 << l;
        if (known(p + 1, p + 1 + l)) starts |= 1 << l;
        for (let i = p - l + 2; i <= p; i++) if (known(i, i + l) && l > spans) spans = l;
      }
      assert.deepEqual(
        [...ex.lexOut],
        [ends, starts, spans],
        `${JSON.stringify(text)} at ${p}: ${[...words]}`,
      );
    }
  }
});
