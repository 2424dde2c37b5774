// Models written before the zero-copy layouts (container version 1, packed first-order and
// higher-order weights) and with two label columns (parser layout 3) still load and parse exactly as they did; current models load their weight
// tables without copying them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { decodeModel, encodeModel, type ModelData, packInt16 } from "../src/model/model-file.js";
import { HigherOrderParser } from "../src/parser/higher-order-parser.js";
import { trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { parserFromModel } from "../src/parser/load-parser.js";
import { Parser } from "../src/parser/parser.js";
import { trainParser } from "../src/parser/train.js";
import type { DependencyParser } from "../src/parser/types.js";
import { toyTreebank } from "./toy-treebank.js";

const vocab = new Vocabularies();
const train = [...parseConllu(toyTreebank(150, 11))].map((r) => toSentence(r, vocab));
const dev = [...parseConllu(toyTreebank(40, 12))].map((r) => toSentence(r, vocab));
const first = trainParser(train, vocab, { epochs: 2, bits: 14, labelBits: 10 }).parser;
const second = trainHigherOrderParser(train, vocab, {
  order: 2,
  k: 3,
  epochs: 2,
  bits: 15,
  firstOrder: first,
}).parser;

/** The first-order part of a model in parser layout 2: packed arc and label weights. */
function firstOrderLayout2(p: Parser): ModelData {
  const m = p.toModelData();
  const arc = packInt16(p.quantizedArcWeights);
  const lab = p.labelWeights;
  return {
    kind: "parser",
    meta: { ...m.meta, layout: 2 },
    arrays: { arcDelta: arc.delta, arcValue: arc.value, labelDelta: lab.delta, labelValue: lab.value },
  };
}

/** The first-order part of a model in parser layout 3: label weights as two columns. */
function firstOrderLayout3(p: Parser): ModelData {
  const m = p.toModelData();
  const { labelEntry, ...arrays } = m.arrays;
  const entry = labelEntry as Int32Array;
  return {
    kind: "parser",
    meta: { ...m.meta, layout: 3 },
    arrays: {
      ...arrays,
      labelId: Uint16Array.from(entry, (e) => e >>> 16),
      labelValue: Int16Array.from(entry, (e) => (e << 16) >> 16),
    },
  };
}

/** A higher-order model as written before weight layout 2: packed weights, no `layout` field. */
function higherOrderLayout1(p: HigherOrderParser): ModelData {
  const m = p.toModelData();
  const f = firstOrderLayout2(p.firstOrder);
  const w = packInt16({
    weights: (m.arrays.weights as Int16Array).slice(),
    scale: m.meta.weightScale as number,
  });
  const meta: Record<string, unknown> = { ...m.meta, firstOrder: f.meta };
  delete meta.layout;
  return { kind: "parser", meta, arrays: { ...f.arrays, weightDelta: w.delta, weightValue: w.value } };
}

function parses(p: DependencyParser): string {
  return dev
    .map((s) => {
      const r = p.parse(s, vocab, p.cascade.maskFor(s, vocab));
      return `${[...r.heads].join(" ")} | ${[...r.labels].join(" ")}`;
    })
    .join("\n");
}

test("old parser layouts in the old container load and parse exactly like the current ones", () => {
  for (const [p, old] of [
    [first, firstOrderLayout2(first)],
    [first, firstOrderLayout3(first)],
    [second, higherOrderLayout1(second)],
  ] as const) {
    const expected = parses(p);
    const current = parserFromModel(decodeModel(encodeModel(p.toModelData())), "new.vpm");
    assert.equal(parses(current), expected);
    for (const version of [1, 2]) {
      const loaded = parserFromModel(decodeModel(encodeModel(old, version)), "old.vpm");
      assert.equal(parses(loaded), expected);
      // Saving an old model writes the current layouts, which load to the same parser again.
      const resaved = parserFromModel(decodeModel(encodeModel(loaded.toModelData())), "re.vpm");
      assert.equal(parses(resaved), expected);
      assert.deepEqual(
        Object.keys(resaved.toModelData().arrays).sort(),
        Object.keys(p.toModelData().arrays).sort(),
      );
    }
  }
});

test("current layouts: the loaded weight tables are the decoded arrays themselves (no copy)", () => {
  const m = decodeModel(encodeModel(second.toModelData()));
  const p = parserFromModel(m, "m.vpm") as HigherOrderParser;
  assert.equal(p.firstOrderWeights.weights, m.arrays.arcWeights);
  assert.equal(
    (p.firstOrder as unknown as { labelRows: { entry: Int32Array } }).labelRows.entry,
    m.arrays.labelEntry,
  );
  assert.equal((p as unknown as { quant: { weights: Int16Array } }).quant.weights, m.arrays.weights);
  // The label rows hold the stored weights as they are; packing them gives back the trained ones.
  const lab = first.labelWeights;
  const again = (parserFromModel(decodeModel(encodeModel(first.toModelData())), "f.vpm") as Parser)
    .labelWeights;
  assert.deepEqual([...again.delta], [...lab.delta]);
  assert.deepEqual([...again.value], [...lab.value]);
  assert.equal(again.scale, lab.scale);
});

test("damaged current-layout weights fail with a one-line 'corrupted' error", () => {
  const m = second.toModelData();
  const bad = (patch: (a: ModelData["arrays"]) => void): string => {
    const arrays = { ...m.arrays };
    patch(arrays);
    try {
      parserFromModel(decodeModel(encodeModel({ ...m, arrays })), "m.vpm");
    } catch (e) {
      return (e as { code?: string }).code ?? String(e);
    }
    return "no error";
  };
  assert.equal(
    bad((a) => (a.weights = new Int16Array(8))),
    "model-corrupt",
  );
  assert.equal(
    bad((a) => (a.arcWeights = new Int16Array(8))),
    "model-corrupt",
  );
  assert.equal(
    bad((a) => (a.labelStart = new Int32Array([0, 5]))),
    "model-corrupt",
  );
  assert.equal(
    bad((a) => (a.labelEntry = (a.labelEntry as Int32Array).map((e) => (999 << 16) | (e & 0xffff)))),
    "model-corrupt",
  );
  assert.equal(
    bad((a) => delete a.labelEntry),
    "model-corrupt",
  );
});
