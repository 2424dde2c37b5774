import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
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
