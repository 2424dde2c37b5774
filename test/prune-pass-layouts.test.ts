// Max-marginal and vine passes store their weight tables as scored (max-marginal layout 2, vine
// layout 3); files of the older layouts, with the non-zero weights delta-coded, still load to the same
// tables and prune the same arcs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeModel, encodeModel, type ModelData, packInt16 } from "../src/model/model-file.js";
import { prunerFromModelData } from "../src/prune/load-pruner.js";
import { MaxMarginalPass } from "../src/prune/max-marginal-pass.js";
import { PruningCascade } from "../src/prune/cascade.js";
import type { ArcPruner } from "../src/prune/pruner.js";
import { VinePass } from "../src/prune/vine-pass.js";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { toyTreebank } from "./toy-treebank.js";

/** A 2^bits table with about one weight in three non-zero, from a fixed seed. */
function table(bits: number, seed: number): Int16Array {
  const w = new Int16Array(1 << bits);
  let s = seed;
  for (let i = 0; i < w.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    if (s % 3 === 0) w[i] = ((s >>> 8) % 2001) - 1000;
  }
  return w;
}

/** The same pass content in the delta-coded layout of `version`. */
function deltaCoded(m: ModelData, version: number): ModelData {
  const w = m.arrays.weights as Int16Array;
  const scale = (m.meta as { scale: number }).scale;
  const p = packInt16({ weights: w, scale });
  return { kind: m.kind, meta: { ...m.meta, version }, arrays: { delta: p.delta, value: p.value } };
}

const roundTrip = (m: ModelData) => prunerFromModelData(decodeModel(encodeModel(m), "x.vpf"), "x.vpf");

const vocab = new Vocabularies();
const sentences = [...parseConllu(toyTreebank(20, 5))].map((r) => toSentence(r, vocab));

function masks(p: ArcPruner): string[] {
  const c = new PruningCascade([p]);
  return sentences.map((s) => Array.from(c.prune(s, vocab).bits).join(""));
}

test("max-marginal passes: the table is stored as scored, and version 1 files load the same", () => {
  for (const order of [1, 2] as const) {
    const pass = new MaxMarginalPass(order, { weights: table(14, order), scale: 0.001 }, 0.3);
    const m = pass.toModelData();
    assert.deepEqual(Object.keys(m.arrays), ["weights"]);
    const now = roundTrip(m) as MaxMarginalPass;
    const old = roundTrip(deltaCoded(m, 1)) as MaxMarginalPass;
    assert.deepEqual(now.weights.weights, pass.weights.weights);
    assert.deepEqual(old.weights.weights, pass.weights.weights);
    assert.equal(old.weights.scale, 0.001);
    assert.deepEqual(masks(old), masks(pass));
    assert.deepEqual(masks(now), masks(pass));
    // The pass prunes something (with all weights 0 every arc ties and stays).
    const zero = new MaxMarginalPass(order, { weights: new Int16Array(1 << 14), scale: 0.001 }, 0.3);
    assert.notDeepEqual(masks(pass), masks(zero));
  }
});

test("a first-order pass with coarse features: stored as version 3 and loaded with them; older readers' version 2 would score the full set", () => {
  const pass = new MaxMarginalPass(1, { weights: table(14, 5), scale: 0.001 }, 0.3, "coarse");
  const m = pass.toModelData();
  assert.equal(m.meta.version, 3);
  assert.equal(m.meta.features, "coarse");
  const back = roundTrip(m) as MaxMarginalPass;
  assert.equal(back.features, "coarse");
  assert.match(back.describe(), /first-order \(coarse features\) max-marginal pass/);
  assert.deepEqual(masks(back), masks(pass));
  // The same table scored with the full features prunes differently: the flag matters.
  const full = roundTrip({ ...m, meta: { ...m.meta, version: 2, features: undefined } }) as MaxMarginalPass;
  assert.equal(full.features, "full");
  assert.notDeepEqual(masks(full), masks(pass));
  assert.throws(
    () => roundTrip({ ...m, meta: { ...m.meta, order: 2 } }),
    /corrupted model: max-marginal pass has bad features/,
  );
  assert.throws(
    () => new MaxMarginalPass(2, { weights: table(14, 5), scale: 0.001 }, 0.3, "coarse"),
    /first-order/,
  );
});

test("vine passes: the table is stored as scored, and version 2 files load the same", () => {
  const pass = new VinePass({ weights: table(14, 7), scale: 0.002 }, 3, 0.2, true);
  const m = pass.toModelData();
  assert.deepEqual(Object.keys(m.arrays), ["weights"]);
  const now = roundTrip(m) as VinePass;
  const old = roundTrip(deltaCoded(m, 2)) as VinePass;
  assert.deepEqual(old.weights.weights, pass.weights.weights);
  assert.equal(old.headOuter, true);
  assert.deepEqual(masks(old), masks(pass));
  assert.deepEqual(masks(now), masks(pass));
  assert.notDeepEqual(
    masks(pass),
    masks(new VinePass({ weights: new Int16Array(1 << 14), scale: 0.002 }, 3, 0.2, true)),
  );
});

test("a vine pass with coarse arc features: stored as version 4 and loaded with them; version 3 would score the full set", () => {
  const pass = new VinePass({ weights: table(14, 9), scale: 0.002 }, 3, 0.2, true, "coarse");
  const m = pass.toModelData();
  assert.equal(m.meta.version, 4);
  assert.equal(m.meta.features, "coarse");
  const back = roundTrip(m) as VinePass;
  assert.equal(back.features, "coarse");
  assert.equal(back.headOuter, true);
  assert.match(back.describe(), /coarse arc features/);
  assert.deepEqual(masks(back), masks(pass));
  // The same table scored with the full features prunes differently: the flag matters.
  const full = roundTrip({ ...m, meta: { ...m.meta, version: 3, features: undefined } }) as VinePass;
  assert.equal(full.features, "full");
  assert.notDeepEqual(masks(full), masks(pass));
  assert.throws(
    () => roundTrip({ ...m, meta: { ...m.meta, features: "full" } }),
    /corrupted model: vine pass has bad features/,
  );
});

test("a pass whose table has the wrong size fails with a one-line 'corrupted' error", () => {
  const m = new MaxMarginalPass(1, { weights: table(12, 3), scale: 0.001 }, 0).toModelData();
  const bad = { ...m, meta: { ...m.meta, size: 1 << 13 } };
  assert.throws(() => roundTrip(bad), /corrupted model: max-marginal pass lacks its weights/);
});
