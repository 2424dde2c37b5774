import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { FEATS, LEMMA, UPOS, XPOS } from "../src/conllu/types.js";
import { MorphModel, morphSentence } from "../src/morph/morph-model.js";
import { readBundle, writeBundle } from "../src/pipeline/bundle.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { type AnnotatedSentence, toConllu, toJson } from "../src/pipeline/pipeline.js";
import { morphToy } from "./morph-toy.js";
import { runCli, trainToyPair } from "./toy-models.js";

const dir = mkdtempSync(join(tmpdir(), "vp-pipeline-morph-"));
after(() => rmSync(dir, { recursive: true, force: true }));

// A toy treebank with trees, tags, lemmas and FEATS: a tagger, a parser and a morph model on it.
const trainText = morphToy(300, 1);
const { tagger, parser } = trainToyPair(trainText);
const morph = MorphModel.train(
  [...parseConllu(trainText)].map((r) => morphSentence(r.sentence)),
  { epochs: 4, bits: 14 },
);
const withMorph = join(dir, "with.vpm");
const without = join(dir, "without.vpm");
const morphPath = join(dir, "toy.morph");
writeBundle(withMorph, { tagger, parser, morph, info: { treebank: "morph toy" } });
writeBundle(without, { tagger, parser, info: { treebank: "morph toy" } });
morph.save(morphPath);

// Held-out sentences with gold tags, lemmas and FEATS.
const heldOut = morphToy(30, 2, true);
const heldOutPath = join(dir, "held-out.conllu");
writeFileSync(heldOutPath, heldOut);
const text = "The dogs walked. A cat is painting. The boats opened.";

/** The morph model's lemmas and FEATS for the words and tags of an annotated sentence. */
function expected(a: AnnotatedSentence): { lemmas: string[]; feats: string[] } {
  return morph.predict({ words: a.forms.slice(1), upos: a.upos.slice(1), xpos: a.xpos.slice(1) });
}

/** Columns of the basic words of CoNLL-U text, sentence by sentence. */
function columns(conllu: string, col: number): string[][] {
  return [...parseConllu(conllu, "out")].map((r) => r.sentence.words.map((w) => w[col]!));
}

test("raw text: the bundle's morph model fills LEMMA and FEATS from the tagger's tags (CoNLL-U and JSON)", () => {
  const out = loadPipeline(withMorph).parseText(text);
  assert.equal(out.length, 3);
  for (const a of out) {
    const e = expected(a);
    assert.deepEqual(a.lemmas, ["", ...e.lemmas]);
    assert.deepEqual(a.feats, ["", ...e.feats]);
    const conllu = toConllu(a);
    assert.deepEqual(columns(conllu, LEMMA)[0], e.lemmas);
    assert.deepEqual(columns(conllu, FEATS)[0], e.feats);
    const json = toJson(a);
    assert.deepEqual(
      json.words.map((w) => w.lemma),
      e.lemmas.map((l) => (l === "_" ? null : l)),
    );
    assert.deepEqual(
      json.words.map((w) => w.feats),
      e.feats.map((f) => (f === "_" ? null : f)),
    );
  }
  // The toy model learned the inflections: plural nouns and past verbs get their stems.
  const lemmas = out.flatMap((a) => a.lemmas!.slice(1));
  for (const l of ["dog", "walk", "paint", "boat", "open"])
    assert.ok(lemmas.includes(l), `${l} in ${lemmas}`);
});

test("a bundle without a morph model leaves LEMMA and FEATS as they were", () => {
  const p = loadPipeline(without);
  assert.equal(p.hasMorph, false);
  for (const a of p.parseText(text)) {
    assert.equal(a.lemmas, undefined);
    assert.ok(columns(toConllu(a), LEMMA)[0]!.every((l) => l === "_"));
  }
});

test("tagged CoNLL-U: LEMMA and FEATS kept unless retagged, or filled everywhere with morph mode always", () => {
  const input = [...parseConllu(heldOut, "held-out")].map((r) => r.sentence);
  // Input lemmas and FEATS replaced by markers, so that keeping them shows.
  const marked = input.map((c) => ({
    ...c,
    words: c.words.map((w) => w.map((v, j) => (j === LEMMA ? "LEMMA" : j === FEATS ? "FEATS" : v))),
  }));
  const run = (mode: "tagged" | "always" | "never", retag: boolean) => {
    const p = loadPipeline(withMorph);
    p.morphMode = mode;
    return p.annotateBlock(marked, retag);
  };
  for (const a of run("tagged", false)) {
    assert.equal(a.lemmas, undefined);
    assert.ok(columns(toConllu(a), LEMMA)[0]!.every((l) => l === "LEMMA"));
  }
  for (const a of run("never", true)) assert.equal(a.feats, undefined);
  for (const [mode, retag] of [
    ["always", false],
    ["tagged", true],
  ] as const) {
    const out = run(mode, retag);
    out.forEach((a, i) => {
      const e = expected(a);
      assert.deepEqual(columns(toConllu(a), LEMMA)[0], e.lemmas);
      assert.deepEqual(columns(toConllu(a), FEATS)[0], e.feats);
      if (!retag)
        assert.deepEqual(
          a.upos.slice(1),
          input[i]!.words.map((w) => w[UPOS]),
        );
    });
  }
  // With the gold tags, the toy model gets nearly all held-out lemmas right (unseen stems too).
  let right = 0;
  let words = 0;
  run("always", false).forEach((a, i) => {
    input[i]!.words.forEach((w, j) => {
      words++;
      if (a.lemmas![j + 1] === w[LEMMA]) right++;
    });
  });
  assert.ok(right / words > 0.9, `held-out lemmas ${right}/${words}`);
});

test("the morph model survives the bundle round trip", () => {
  const b = readBundle(withMorph);
  assert.ok(b.morph !== undefined);
  for (const r of parseConllu(heldOut)) {
    const x = morphSentence(r.sentence);
    assert.deepEqual(b.morph.predict(x), morph.predict(x));
  }
  assert.equal(readBundle(without).morph, undefined);
});

test("CLI: morph attach puts a morph model in a bundle or takes it out; parse --morph chooses where it runs", () => {
  const attached = join(dir, "attached.vpm");
  let r = runCli(["morph", "attach", "--model", without, "--morph", morphPath, "--out", attached]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /morph model toy\.morph/);
  r = runCli(["parse", "--model", attached, "--text", text, "--quiet"]);
  assert.equal(r.status, 0, r.stderr);
  const lemmas = columns(r.stdout, LEMMA).flat();
  assert.ok(lemmas.includes("dog") && lemmas.includes("walk"), lemmas.join(" "));
  const tags = [...parseConllu(r.stdout, "out")].map((s) => s.sentence.words);
  const e = tags.map((ws) =>
    morph.predict({
      words: ws.map((w) => w[1]!),
      upos: ws.map((w) => w[UPOS]!),
      xpos: ws.map((w) => w[XPOS]!),
    }),
  );
  assert.deepEqual(
    columns(r.stdout, FEATS),
    e.map((x) => x.feats),
  );
  // The same on two worker threads.
  const threaded = runCli(["parse", "--model", attached, "--text", text, "--quiet", "--threads", "2"]);
  assert.equal(threaded.status, 0, threaded.stderr);
  assert.equal(threaded.stdout, r.stdout);
  // Never: LEMMA and FEATS stay "_".
  r = runCli(["parse", "--model", attached, "--text", text, "--quiet", "--morph", "never"]);
  assert.ok(
    columns(r.stdout, LEMMA)
      .flat()
      .every((l) => l === "_"),
  );
  // Always, on tagged input: filled from the input's tags.
  r = runCli(["parse", "--model", attached, "--input", heldOutPath, "--quiet", "--morph", "always"]);
  assert.equal(r.status, 0, r.stderr);
  const gold = [...parseConllu(heldOut)].map((s) => morph.predict(morphSentence(s.sentence)).lemmas);
  assert.deepEqual(columns(r.stdout, LEMMA), gold);
  // `vineparse morph` takes the bundle's morph model; a bundle without one is a one-line error.
  r = runCli(["morph", "--model", attached, "--input", heldOutPath]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(columns(r.stdout, LEMMA), gold);
  r = runCli(["morph", "eval", "--model", without, "--gold", heldOutPath]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /has no morph model/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  // Taken out again.
  const removed = join(dir, "removed.vpm");
  r = runCli(["morph", "attach", "--model", attached, "--morph", "none", "--out", removed]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readBundle(removed).morph, undefined);
  assert.ok(!("morph" in readBundle(removed).info));
  // A bad --morph value, a damaged morph model: one line, no output file.
  r = runCli(["parse", "--model", attached, "--text", text, "--morph", "sometimes"]);
  assert.notEqual(r.status, 0);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  const damaged = join(dir, "damaged.morph");
  const bytes = readFileSync(morphPath);
  writeFileSync(damaged, bytes.subarray(0, bytes.length >> 1));
  const bad = join(dir, "bad.vpm");
  r = runCli(["morph", "attach", "--model", without, "--morph", damaged, "--out", bad]);
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.ok(r.stderr.includes(damaged), r.stderr);
  assert.equal(existsSync(bad), false);
});
