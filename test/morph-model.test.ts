import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { VineparseError } from "../src/errors.js";
import { applyRule } from "../src/morph/edit-rule.js";
import {
  FIXED_FEATS_COUNT,
  MorphModel,
  morphAccuracy,
  morphSentence,
  type MorphSentence,
} from "../src/morph/morph-model.js";
import { morphToy } from "./morph-toy.js";

const tmp = mkdtempSync(join(tmpdir(), "vineparse-morph-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const read = (text: string): MorphSentence[] =>
  [...parseConllu(text, "toy")].map((r) => morphSentence(r.sentence));
const train = read(morphToy(300, 1));
const heldOut = read(morphToy(200, 2, true));
const model = MorphModel.train(train, { epochs: 6, bits: 16 });

function baseline(data: MorphSentence[]): number {
  let ok = 0;
  let n = 0;
  for (const s of data)
    for (let i = 0; i < s.words.length; i++, n++) if (s.words[i]!.toLowerCase() === s.lemmas[i]) ok++;
  return (100 * ok) / n;
}

test("training on the toy treebank: near-perfect on it, and on held-out words far above lowercasing", () => {
  const onTrain = morphAccuracy(model, train);
  assert.ok(onTrain.lemma > 99.5, `train lemma ${onTrain.lemma}`);
  assert.ok(onTrain.ufeats > 99, `train UFeats ${onTrain.ufeats}`);
  const held = morphAccuracy(model, heldOut);
  assert.ok(held.unseen.words > 50);
  const base = baseline(heldOut);
  assert.ok(held.lemma > 90 && held.lemma > base + 20, `held-out lemma ${held.lemma} vs baseline ${base}`);
  assert.ok(held.unseen.lemma > 80, `unseen lemma ${held.unseen.lemma}`);
  assert.ok(held.ufeats > 95, `held-out UFeats ${held.ufeats}`);
});

test("the chosen lemma rule always applies, and lemmas are never empty", () => {
  const odd = ["", "x", "ЁЖ", "1990s", "İstanbul", "--", "字字", "walkies"];
  for (const s of [...heldOut, { words: odd, upos: odd.map(() => "NOUN"), xpos: odd.map(() => "NN") }]) {
    for (let i = 0; i < s.words.length; i++) {
      const l = model.lemma(s, i);
      assert.ok(l.length > 0);
      if (s.words[i]!.length > 0)
        assert.ok(
          model.rules.rules.some((r) => applyRule(r, s.words[i]!) === l),
          `${s.words[i]} → ${l}`,
        );
    }
  }
});

test("FEATS come from the bundles seen with the word's UPOS (all of them for an unseen UPOS)", () => {
  for (const s of heldOut) {
    const p = model.predict(s);
    for (let i = 0; i < s.words.length; i++) {
      const ids = model.uposBundles.get(s.upos[i]!)!;
      assert.ok([...ids].some((b) => model.bundles[b] === p.feats[i]));
    }
  }
  const x = { words: ["zzz"], upos: ["INTJ"], xpos: ["UH"] };
  assert.ok(model.bundles.includes(model.predict(x).feats[0]!));
});

test("a (form, UPOS) seen often with one FEATS bundle gets it in any context; rarer ones go to the classifier", () => {
  const fixed = [...model.dictionary].filter(([, [, f]]) => f >= 0);
  assert.ok(fixed.length > 0);
  for (const [key, [, f]] of fixed) {
    const [form, upos] = key.split("\u0001") as [string, string];
    // Every training occurrence had that bundle, at least FIXED_FEATS_COUNT times.
    let n = 0;
    for (const s of train)
      s.words.forEach((w, i) => {
        if (w === form && s.upos[i] === upos) {
          n++;
          assert.equal(s.feats[i], model.bundles[f]);
        }
      });
    assert.ok(n >= FIXED_FEATS_COUNT, `${form} ${upos} seen ${n} times`);
    // Whatever the neighbours, the same bundle.
    const x = { words: ["zz", form, "qq"], upos: ["PUNCT", upos, "VERB"], xpos: ["X", "X", "X"] };
    assert.equal(model.featsOf(x, 1), model.bundles[f]);
  }
});

test("save → load gives identical predictions", () => {
  const path = join(tmp, "m.vpm");
  model.save(path);
  const back = MorphModel.load(path);
  for (const s of [...train.slice(0, 50), ...heldOut]) assert.deepEqual(back.predict(s), model.predict(s));
});

test("the best epoch on dev is kept, and training is deterministic", () => {
  const a = MorphModel.train(train, { epochs: 3, bits: 14, dev: heldOut });
  const b = MorphModel.train(train, { epochs: 3, bits: 14, dev: heldOut });
  for (const s of heldOut) assert.deepEqual(a.predict(s), b.predict(s));
});

test("damaged or foreign model files fail with one line naming the file", () => {
  const path = join(tmp, "m2.vpm");
  model.save(path);
  const bytes = readFileSync(path);
  const cases: [string, Uint8Array][] = [
    ["truncated", bytes.subarray(0, bytes.length >> 1)],
    ["flipped", Uint8Array.from(bytes, (b, i) => (i === bytes.length - 10 ? b ^ 0xff : b))],
    ["garbage", new TextEncoder().encode("hello\n")],
  ];
  for (const [name, data] of cases) {
    const p = join(tmp, name);
    writeFileSync(p, data);
    assert.throws(
      () => MorphModel.load(p),
      (e: unknown) => e instanceof VineparseError && !e.message.includes("\n") && e.message.includes(p),
      name,
    );
  }
  // Content that decodes but is not a valid morph model.
  const d = model.toModelData();
  const bad = [
    { ...d, meta: { ...d.meta, version: 99 } },
    { ...d, meta: { ...d.meta, rules: ["nonsense"] } },
    { ...d, arrays: { ...d.arrays, lemmaDelta: new Uint32Array([1 << 30]) } },
    { ...d, arrays: { ...d.arrays, dictionaryRules: new Int32Array(1) } },
    { ...d, arrays: { ...d.arrays, dictionaryFeats: new Int32Array(1) } },
    {
      ...d,
      arrays: { ...d.arrays, dictionaryFeats: new Int32Array(d.arrays.dictionaryFeats!.length).fill(9999) },
    },
  ];
  for (const m of bad)
    assert.throws(
      () => MorphModel.fromModelData(m, "bad.vpm"),
      (e: unknown) =>
        e instanceof VineparseError && !e.message.includes("\n") && e.message.startsWith("bad.vpm"),
    );
});

test("trained without lemmas (every LEMMA _), the model gives _ and still tags FEATS", () => {
  const noLemmas = train.map((s) => ({ ...s, lemmas: s.lemmas.map(() => "_") }));
  const m = MorphModel.train(noLemmas, { epochs: 3, bits: 16 });
  assert.equal(m.lemmatizes, false);
  assert.equal(model.lemmatizes, true);
  const acc = morphAccuracy(m, heldOut);
  assert.ok(acc.ufeats > 90, `ufeats ${acc.ufeats}`);
  for (const s of heldOut.slice(0, 20)) assert.ok(m.predict(s).lemmas.every((l) => l === "_"));
  // The same after a round trip through a file.
  const path = join(tmp, "nolemma.vpm");
  m.save(path);
  const back = MorphModel.load(path);
  assert.equal(back.lemmatizes, false);
  assert.deepEqual(back.predict(heldOut[0]!), m.predict(heldOut[0]!));
});

test("a file whose dictionary keys are not grouped by UPOS loads to the same predictions", () => {
  const data = model.toModelData();
  const keys = data.meta.dictionaryKeys as string[];
  const rules = data.arrays.dictionaryRules as Int32Array;
  const feats = data.arrays.dictionaryFeats as Int32Array;
  // Every other entry to the end: UPOS groups interleave.
  const order = [...keys.keys()].sort((a, b) => (a % 2) - (b % 2) || a - b);
  const shuffled = {
    ...data,
    meta: { ...data.meta, dictionaryKeys: order.map((i) => keys[i]!) },
    arrays: {
      ...data.arrays,
      dictionaryRules: Int32Array.from(order, (i) => rules[i]!),
      dictionaryFeats: Int32Array.from(order, (i) => feats[i]!),
    },
  };
  const back = MorphModel.fromModelData(shuffled, "shuffled");
  assert.deepEqual(new Map(back.dictionary), new Map(model.dictionary));
  for (const s of [...train.slice(0, 50), ...heldOut]) assert.deepEqual(back.predict(s), model.predict(s));
});
