import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { VineparseError } from "../src/errors.js";
import {
  decodeModel,
  densify,
  encodeModel,
  readModelFile,
  sparsify,
  writeModelFile,
} from "../src/model/model-file.js";

const model = {
  kind: "test",
  meta: { labels: ["nsubj", "obj"], order: 1 },
  arrays: {
    w: new Float32Array([0, 1.5, 0, -2]),
    ids: new Int32Array([7, 8, 9]),
    b: new Uint8Array([1, 2, 3]),
  },
};

test("model round-trips through encode/decode", () => {
  const back = decodeModel(encodeModel(model));
  assert.equal(back.kind, "test");
  assert.deepEqual(back.meta, model.meta);
  assert.deepEqual([...(back.arrays.w as Float32Array)], [0, 1.5, 0, -2]);
  assert.ok(back.arrays.ids instanceof Int32Array);
  assert.deepEqual([...back.arrays.ids!], [7, 8, 9]);
  assert.deepEqual([...back.arrays.b!], [1, 2, 3]);
});

test("multi-byte integer arrays are stored byte-planar, compress better, and come back exact", () => {
  // Smooth 16-bit weights and small 32-bit deltas: high bytes nearly constant.
  const n = 20000;
  const w = new Int16Array(n);
  const d = new Uint32Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    w[i] = ((x >>> 16) % 600) - 300;
    d[i] = 1 + ((x >>> 8) % 200);
  }
  const m = {
    kind: "test",
    meta: {},
    arrays: { w, d, f: new Float64Array([1.25, -3]), u: new Uint16Array([65535, 1]) },
  };
  const bytes = encodeModel(m);
  const back = decodeModel(bytes);
  assert.deepEqual([...back.arrays.w!], [...w]);
  assert.deepEqual([...back.arrays.d!], [...d]);
  assert.deepEqual([...back.arrays.f!], [1.25, -3]);
  assert.deepEqual([...back.arrays.u!], [65535, 1]);
  // Planar storage of these arrays beats interleaved storage of the same bytes.
  const interleaved = gzipSync(Buffer.concat([Buffer.from(w.buffer), Buffer.from(d.buffer)])).length;
  assert.ok(bytes.length < interleaved, `${bytes.length} vs ${interleaved}`);
});

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof VineparseError, String(e));
    return e.code;
  }
  return "no error";
}

test("truncated, corrupted, foreign and wrong-version files fail with one clear error", () => {
  const bytes = encodeModel(model);
  assert.equal(
    codeOf(() => decodeModel(bytes.subarray(0, bytes.length - 3))),
    "model-truncated",
  );
  const bad = bytes.slice();
  bad[bad.length - 5] ^= 0xff;
  assert.equal(
    codeOf(() => decodeModel(bad)),
    "model-corrupt",
  );
  assert.equal(
    codeOf(() => decodeModel(new TextEncoder().encode("hello world, not a model"))),
    "model-format",
  );
  const v2 = bytes.slice();
  new DataView(v2.buffer).setUint32(8, 99, true);
  assert.equal(
    codeOf(() => decodeModel(v2)),
    "model-version",
  );
  assert.equal(
    codeOf(() => decodeModel(bytes, "m", "parser")),
    "model-kind",
  );
});

test("writeModelFile is atomic and readModelFile reports missing files", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-model-"));
  const path = join(dir, "m.bin");
  writeModelFile(path, model);
  assert.deepEqual(readdirSync(dir), ["m.bin"]);
  assert.equal(readModelFile(path, "test").kind, "test");
  writeFileSync(join(dir, "cut.bin"), readFileSync(path).subarray(0, 30));
  assert.equal(
    codeOf(() => readModelFile(join(dir, "cut.bin"))),
    "model-truncated",
  );
  assert.equal(
    codeOf(() => readModelFile(join(dir, "nope.bin"))),
    "no-file",
  );
});

test("sparsify/densify are inverse", () => {
  const w = new Float32Array([0, 0, 3, 0, -1, 0]);
  const s = sparsify(w);
  assert.deepEqual([...s.index], [2, 4]);
  assert.deepEqual([...densify(s.index, s.value, 6)], [...w]);
});
