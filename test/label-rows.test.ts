import assert from "node:assert/strict";
import { test } from "node:test";
import { DENSE_ROW_ENTRIES, LabelRows } from "../src/parser/label-rows.js";
import { Rng } from "../src/util/rng.js";

/** A sparse rows × labels table with extreme weights and labels above 2^15, as packed weights. */
function randomTable(rows: number, labels: number, seed: number) {
  const rng = new Rng(seed);
  const cells = new Map<number, number>();
  for (let k = 0; k < rows * 3; k++) {
    const r = rng.int(rows);
    const l = k % 5 === 0 ? labels - 1 - rng.int(3) : rng.int(labels);
    const v = k % 7 === 0 ? (k % 2 === 0 ? 32767 : -32768) : rng.int(2001) - 1000;
    if (v !== 0) cells.set(r * labels + l, v);
  }
  const index = [...cells.keys()].sort((a, b) => a - b);
  const delta = new Uint32Array(index.length);
  const value = new Int16Array(index.length);
  let last = 0;
  index.forEach((ix, k) => {
    delta[k] = ix - last;
    last = ix;
    value[k] = cells.get(ix)!;
  });
  return { cells, packed: { delta, value, scale: 0.001 } };
}

test("label rows: integer sums of listed rows equal the dense table's, labels above 2^15 and extreme weights included", () => {
  const rows = 64;
  const labels = 40000;
  const { cells, packed } = randomTable(rows, labels, 3);
  const lr = LabelRows.fromPacked(packed, rows, labels);
  const list = Int32Array.from([
    5, 17, 5, 63, 0, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57,
  ]);
  const got = new Int32Array(labels);
  lr.accumulate(list, list.length, got);
  const want = new Int32Array(labels);
  for (const r of list)
    for (const [ix, v] of cells) if (Math.floor(ix / labels) === r) want[ix % labels]! += v;
  assert.deepEqual(got, want);
  // Sums beyond 16 bits stay exact: one row of extreme weights listed many times.
  const one = LabelRows.fromColumns(
    Int32Array.from([0, 2]),
    Uint16Array.from([0, 1]),
    Int16Array.from([32767, -32768]),
    0.001,
    2,
  );
  const sums = new Int32Array(2);
  one.accumulate(new Int32Array(32), 32, sums);
  assert.deepEqual([...sums], [32 * 32767, -32 * 32768]);
  assert.ok(
    [...cells.keys()].some((ix) => ix % labels >= 32768),
    "some labels need the 16th bit",
  );
});

test("label rows: the label/value columns, the packed entries and pack() all give back what was built", () => {
  const { packed } = randomTable(32, 50, 9);
  const lr = LabelRows.fromPacked(packed, 32, 50);
  const columns = LabelRows.fromColumns(lr.start, lr.label, lr.value, lr.scale, 50);
  assert.deepEqual(columns.entry, lr.entry);
  const again = new LabelRows(lr.start, lr.entry, lr.scale, 50);
  assert.deepEqual(again.label, lr.label);
  assert.deepEqual(again.value, lr.value);
  const p = lr.pack(50);
  assert.deepEqual(p.delta, packed.delta);
  assert.deepEqual(p.value, packed.value);
  assert.throws(() => new LabelRows(lr.start, lr.entry, lr.scale, 10), RangeError);
  assert.throws(
    () => LabelRows.fromColumns(lr.start, lr.label, lr.value.subarray(1), lr.scale, 50),
    RangeError,
  );
});

test("label rows: score() (dense rows through the WebAssembly kernel where it runs) sums exactly as accumulate()", () => {
  const rows = 300;
  const labels = 51;
  const rng = new Rng(21);
  // Rows 0-29 hold every label (dense copies), the others a few or none; extreme weights included.
  const cells = new Map<number, number>();
  for (let r = 0; r < rows; r++) {
    const n = r < 30 ? labels : rng.int(DENSE_ROW_ENTRIES + 2);
    for (let k = 0; k < n; k++) {
      const l = r < 30 ? k : rng.int(labels);
      const v = k % 9 === 0 ? (k % 2 === 0 ? 32767 : -32768) : rng.int(4001) - 2000;
      if (v !== 0) cells.set(r * labels + l, v);
    }
  }
  const index = [...cells.keys()].sort((a, b) => a - b);
  const delta = new Uint32Array(index.length);
  let last = 0;
  index.forEach((ix, k) => {
    delta[k] = ix - last;
    last = ix;
  });
  const packed = { delta, value: Int16Array.from(index, (ix) => cells.get(ix)!), scale: 0.01 };
  const lr = LabelRows.fromPacked(packed, rows, labels);
  for (let trial = 0; trial < 200; trial++) {
    // Up to 80 rows: longer lists than the kernel takes at once go entry by entry.
    const count = trial === 0 ? 0 : trial === 1 ? 80 : 1 + rng.int(32);
    const list = Int32Array.from({ length: count }, () => (rng.next() < 0.5 ? rng.int(30) : rng.int(rows)));
    const want = new Int32Array(labels);
    lr.accumulate(list, count, want);
    const got = lr.score(list, count);
    assert.ok(got.length >= labels);
    assert.deepEqual(got.subarray(0, labels), want, `trial ${trial}`);
  }
  // Far more labels than a dense row may have: entry by entry.
  const wide = LabelRows.fromColumns(
    Int32Array.from([0, 2]),
    Uint16Array.from([0, 1000]),
    Int16Array.from([5, -7]),
    1,
    1001,
  );
  const s = wide.score(Int32Array.from([0, 0]), 2);
  assert.equal(s[0], 10);
  assert.equal(s[1000], -14);
});
