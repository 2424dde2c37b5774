import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { crc32, deflateRawSync, gzipSync, inflateRawSync } from "node:zlib";
import { VineparseError } from "../src/errors.js";
import { crc32 as jsCrc32 } from "../src/util/crc32.js";
import {
  decodeModel,
  decodeModelBytes,
  densify,
  encodeModel,
  type ModelArray,
  readModelFile,
  readModelFileDeferring,
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

/** Bytes of a typed array, for exact (bit-level) comparison. */
function bytesOf(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Arrays over several 1 MiB segments: dense, zero-heavy, all-zero; odd lengths; floats with -0 and NaN payloads. */
function segmentedModel(): {
  kind: string;
  meta: Record<string, unknown>;
  arrays: Record<string, ModelArray>;
} {
  let x = 99;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  const w = new Int16Array(1_300_001); // segments: dense | mostly zero | all zero (partial)
  for (let i = 0; i < 524288; i++) w[i] = (next() % 2001) - 1000;
  for (let i = 524288; i < 1048576; i += 7) w[i] = (next() % 201) - 100;
  const d = new Uint32Array(300_000);
  for (let i = 0; i < d.length; i++) d[i] = i % 3 === 0 ? 0 : next();
  const f = new Float64Array([0, -0, Number.NaN, 1.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2]);
  new DataView(f.buffer).setUint32(16, 0x7ff80001, true); // a NaN with a payload
  const b = new Int8Array([0, 0, -3, 0, 0, 0, 0, 0, 0]);
  return {
    kind: "seg",
    meta: { n: 1 },
    arrays: { w, d, f, b, e: new Uint16Array(0), r: new Uint8Array(1_500_000).map(() => next() & 255) },
  };
}

test("version 2: arrays over many segments (plain, masked, all-zero) come back bit for bit; version 1 still reads", () => {
  const m = segmentedModel();
  const v2 = encodeModel(m);
  const v1 = encodeModel(m, 1);
  assert.equal(new DataView(v2.buffer).getUint32(8, true), 2);
  assert.equal(new DataView(v1.buffer).getUint32(8, true), 1);
  const dir = mkdtempSync(join(tmpdir(), "vp-model-"));
  writeFileSync(join(dir, "v1.vpm"), v1);
  writeFileSync(join(dir, "v2.vpm"), v2);
  // In memory and from a file (read piece by piece), both versions.
  for (const back of [
    decodeModel(v2),
    decodeModel(v1),
    readModelFile(join(dir, "v1.vpm")),
    readModelFile(join(dir, "v2.vpm")),
  ]) {
    assert.equal(back.kind, "seg");
    assert.deepEqual(back.meta, { n: 1 });
    assert.deepEqual(Object.keys(back.arrays).sort(), Object.keys(m.arrays).sort());
    for (const [k, a] of Object.entries(m.arrays)) {
      const b = back.arrays[k]!;
      assert.equal(b.constructor, a.constructor, k);
      assert.equal(b.length, a.length, k);
      assert.ok(bytesOf(b).equals(bytesOf(a)), `array ${k} differs`);
    }
  }
  // Zero-heavy arrays are stored as bitmaps of their non-zero elements: a 2^23 table of 16-bit
  // weights with a few non-zeros takes a few kB.
  const sparse = new Int16Array(1 << 23);
  for (let i = 0; i < sparse.length; i += 100_003) sparse[i] = i & 0x7fff;
  const bytes = encodeModel({ kind: "t", meta: {}, arrays: { sparse } });
  assert.ok(bytes.length < 40_000, `${bytes.length} bytes`);
  assert.ok(bytesOf(decodeModel(bytes).arrays.sparse!).equals(bytesOf(sparse)));
});

test("deferred arrays stay compressed until taken, then come back as readModelFile gives them (both versions)", () => {
  const m = segmentedModel();
  const dir = mkdtempSync(join(tmpdir(), "vp-model-"));
  const names = Object.keys(m.arrays).sort();
  const later = new Set(names.filter((_, i) => i % 2 === 0));
  assert.ok(later.size > 0 && later.size < names.length);
  for (const version of [1, 2]) {
    const path = join(dir, `v${version}.vpm`);
    writeFileSync(path, encodeModel(m, version));
    const whole = readModelFile(path);
    const { model, deferred } = readModelFileDeferring(path, undefined, (name) => later.has(name));
    assert.equal(model.kind, "seg");
    assert.deepEqual(model.meta, whole.meta);
    assert.deepEqual(
      Object.keys(model.arrays).sort(),
      names.filter((k) => !later.has(k)),
    );
    assert.deepEqual(deferred.names.sort(), [...later].sort());
    // A part first (only the arrays asked for), then the rest.
    const first = [...later].sort()[0]!;
    const part = deferred.take((name) => name === first);
    assert.deepEqual(Object.keys(part), [first]);
    assert.deepEqual(deferred.names.sort(), [...later].filter((k) => k !== first).sort());
    const taken = { ...part, ...deferred.take() };
    assert.deepEqual(Object.keys(taken).sort(), [...later].sort());
    for (const [k, a] of Object.entries({ ...model.arrays, ...taken })) {
      const b = whole.arrays[k]!;
      assert.equal(a.constructor, b.constructor, k);
      assert.ok(bytesOf(a).equals(bytesOf(b)), `array ${k} differs (version ${version})`);
    }
    // Handed over: nothing is kept for a second call.
    assert.deepEqual(deferred.take(), {});
    assert.deepEqual(deferred.names, []);
  }
  // Without `defer`, nothing is deferred.
  const { model, deferred } = readModelFileDeferring(join(dir, "v2.vpm"));
  assert.deepEqual(Object.keys(model.arrays).sort(), names);
  assert.deepEqual(deferred.names, []);
});

/** A version-2 file taken apart: the JSON header and each array's inflated stream, and put back together. */
/** The parts of a version-2 file that the tests below damage. */
interface V2Parts {
  header: { arrays: { bytes?: number; length: number }[] } & Record<string, unknown>;
  streams: Buffer[];
}

function explodeV2(file: Uint8Array): V2Parts {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const jsonZ = v.getUint32(24, true);
  const header = JSON.parse(inflateRawSync(file.subarray(32, 32 + jsonZ)).toString("utf8"));
  const streams: Buffer[] = [];
  let at = 32 + jsonZ;
  for (const d of header.arrays as { bytes: number }[]) {
    streams.push(inflateRawSync(file.subarray(at, at + d.bytes)));
    at += d.bytes;
  }
  return { header, streams };
}

function implodeV2(e: V2Parts, keepBytes = false): Uint8Array {
  const zs = e.streams.map((s) => deflateRawSync(s));
  if (!keepBytes) e.header.arrays.forEach((d, i) => (d.bytes = zs[i]!.length));
  const json = Buffer.from(JSON.stringify(e.header), "utf8");
  const jz = deflateRawSync(json);
  const payload = Buffer.concat([Buffer.alloc(8), jz, ...zs]);
  payload.writeUInt32LE(jz.length, 0);
  payload.writeUInt32LE(json.length, 4);
  const out = Buffer.alloc(24 + payload.length);
  out.write("VINEPARS", 0, "latin1");
  out.writeUInt32LE(2, 8);
  out.writeUInt32LE(1, 12);
  out.writeUInt32LE(payload.length, 16);
  out.writeUInt32LE(crc32(payload) >>> 0, 20);
  payload.copy(out, 24);
  return out;
}

/** A small version-2 model for the damage tests: a zero-heavy (masked) array and a plain one. */
const SMALL_V2 = {
  kind: "t",
  meta: {},
  arrays: { a: new Int16Array(40).map((_, i) => (i % 5 === 0 ? i : 0)), b: new Int32Array([1, 2, 3]) },
};

/** Ways to damage `SMALL_V2`'s parts that its checksum (recomputed by `implodeV2`) does not catch. */
const V2_DAMAGES: [string, (e: V2Parts) => void][] = [
  ["bad segment mode", (e) => (e.streams[0]![0] = 7)],
  ["bitmap promises more elements than stored", (e) => (e.streams[0]![1] = 0xff)],
  ["bitmap marks an element with no stored value", (e) => (e.streams[0]![5] |= 0x80)],
  ["stream one byte short", (e) => (e.streams[1] = e.streams[1]!.subarray(0, e.streams[1]!.length - 1))],
  ["stream one byte long", (e) => (e.streams[1] = Buffer.concat([e.streams[1]!, Buffer.alloc(1)]))],
  ["array longer than its stream", (e) => (e.header.arrays[1]!.length = 4)],
  ["bad segment size", (e) => (e.header.segmentBytes = 1000)],
];

test("version 2: damaged segments and directories with a valid checksum fail with one 'corrupted' line", () => {
  const m = SMALL_V2;
  const good = encodeModel(m);
  assert.deepEqual([...decodeModel(implodeV2(explodeV2(good))).arrays.a!], [...m.arrays.a]);
  const cases = V2_DAMAGES;
  for (const [what, damage] of cases) {
    const e = explodeV2(good);
    damage(e);
    assert.equal(
      codeOf(() => decodeModel(implodeV2(e), "m.vpm")),
      "model-corrupt",
      what,
    );
  }
  // Directories whose stream lengths are missing or do not add up to the payload.
  const e = explodeV2(good);
  delete e.header.arrays[0]!.bytes;
  assert.equal(
    codeOf(() => decodeModel(implodeV2(e, true))),
    "model-corrupt",
  );
  const f = explodeV2(good);
  f.header.arrays[0]!.bytes! += 1;
  assert.equal(
    codeOf(() => decodeModel(implodeV2(f, true))),
    "model-corrupt",
  );
  // A huge array claimed by a tiny stream is refused before anything is allocated.
  const huge = explodeV2(good);
  huge.header.arrays[1]!.length = 2 ** 40;
  assert.equal(
    codeOf(() => decodeModel(implodeV2(huge))),
    "model-corrupt",
  );
});

/** The error code of a promise's rejection (a VineparseError), or "no error". */
async function asyncCodeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof VineparseError, String(e));
    return e.code;
  }
  return "no error";
}

/** Whether two decoded models are the same: kind, meta and every array bit for bit, of the same type. */
function assertSameModel(a: ReturnType<typeof decodeModel>, b: ReturnType<typeof decodeModel>): void {
  assert.equal(b.kind, a.kind);
  assert.deepEqual(b.meta, a.meta);
  assert.deepEqual(Object.keys(b.arrays).sort(), Object.keys(a.arrays).sort());
  for (const [k, x] of Object.entries(a.arrays)) {
    const y = b.arrays[k]!;
    assert.equal(y.constructor, x.constructor, k);
    assert.ok(bytesOf(y).equals(bytesOf(x)), k);
  }
}

test("our CRC-32 (for decoding without Node's zlib) is zlib's, whole and in pieces", () => {
  let x = 5;
  const data = new Uint8Array(100_003).map(() => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24);
  assert.equal(jsCrc32(new Uint8Array(0)), 0);
  assert.equal(jsCrc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  for (const len of [1, 3, 4, 5, 17, 4096, data.length]) {
    const d = data.subarray(0, len);
    assert.equal(jsCrc32(d), crc32(d) >>> 0, `length ${len}`);
  }
  assert.equal(jsCrc32(data.subarray(50_001), jsCrc32(data.subarray(0, 50_001))), crc32(data) >>> 0);
});

test("decodeModelBytes (DecompressionStream, no zlib) gives decodeModel's models and errors", async () => {
  for (const m of [model, segmentedModel()]) {
    const bytes = encodeModel(m);
    assertSameModel(decodeModel(bytes), await decodeModelBytes(bytes));
    // A view into a larger buffer reads the same.
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 3);
    assertSameModel(decodeModel(bytes), await decodeModelBytes(padded.subarray(3, 3 + bytes.length)));
  }
  const bytes = encodeModel(model);
  const bad = bytes.slice();
  bad[bad.length - 5] ^= 0xff;
  const v99 = bytes.slice();
  new DataView(v99.buffer).setUint32(8, 99, true);
  const files: [string, Uint8Array, string?][] = [
    ["truncated", bytes.subarray(0, bytes.length - 3)],
    ["checksum", bad],
    ["foreign", new TextEncoder().encode("hello world, not a model")],
    ["version", v99],
    ["kind", bytes, "parser"],
  ];
  // Damage under a valid checksum, as in the version-2 test above, and a stream that is not deflate.
  const good = encodeModel(SMALL_V2);
  for (const [what, damage] of V2_DAMAGES) {
    const e = explodeV2(good);
    damage(e);
    files.push([what, implodeV2(e)]);
  }
  const garbage = Buffer.from(implodeV2(explodeV2(good)));
  const jsonZ = garbage.readUInt32LE(24);
  garbage.fill(0xff, 32 + jsonZ, 32 + jsonZ + 4); // the first array's stream: not deflate
  garbage.writeUInt32LE(crc32(garbage.subarray(24)) >>> 0, 20);
  files.push(["not a deflate stream", garbage]);
  for (const [what, file, kind] of files) {
    const want = codeOf(() => decodeModel(file, "m.vpm", kind));
    assert.notEqual(want, "no error", what);
    assert.equal(await asyncCodeOf(decodeModelBytes(file, "m.vpm", kind)), want, what);
  }
});
