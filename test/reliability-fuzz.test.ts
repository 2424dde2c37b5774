// Issue #13, fuzzing (fast-check, fixed seeds): the CoNLL-U reader under random line mutations, the
// model reader under byte flips, truncations and crafted payloads, the tokenizer on any Unicode
// string, and the decoders on random scores and masks. No stack traces, no silent garbage.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { crc32, deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";
import fc from "fast-check";
import { parseConllu, type ReadOptions, streamConllu } from "../src/conllu/read.js";
import { isProjective, isTree, rootChildren } from "../src/decode/tree-predicates.js";
import { VineparseError } from "../src/errors.js";
import {
  ArcMask,
  ChuLiuEdmondsDecoder,
  EisnerDecoder,
  enumerateTrees,
  SecondOrderDecoder,
  ThirdOrderDecoder,
} from "../src/index.js";
import { decodeModel, encodeModel, type ModelData } from "../src/model/model-file.js";
import { parserFromModel } from "../src/parser/load-parser.js";
import { bundleFromModelData, taggerFromModelData } from "../src/pipeline/bundle.js";
import { segmentText } from "../src/pipeline/sentence-split.js";
import { isSpaceCode, type Tokenization, tokenize } from "../src/pipeline/tokenize.js";
import { LearnedTokenizer } from "../src/tokenizer/learned-tokenizer.js";
import { finish, mix } from "../src/util/hash.js";
import { decodeUtf8, Utf8StreamDecoder } from "../src/util/utf8.js";
import { tokenizerToy } from "./tokenizer-toy.js";
import { toyModels } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const tmp = mkdtempSync(join(tmpdir(), "vp-fuzz-"));
const toy = toyModels();
after(() => {
  toy.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// CoNLL-U reader

const BASE_LINES = [
  "# newdoc id = d1",
  "# sent_id = 1",
  "# text = The dog's bone.",
  "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t2:det\t_",
  "2-3\tdog's\t_\t_\t_\t_\t_\t_\t_\t_",
  "2\tdog\tdog\tNOUN\tNN\t_\t4\tnmod:poss\t_\t_",
  "3\t's\t's\tPART\tPOS\t_\t2\tcase\t_\t_",
  "3.1\telided\t_\tVERB\t_\t_\t_\t_\t2:conj\t_",
  "4\tbone\tbone\tNOUN\tNN\t_\t0\troot\t_\tSpaceAfter=No",
  "5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_",
  "",
  ...toyTreebank(3, 5).split("\n"),
];

const FIELD_VALUES = [
  "",
  "_",
  "0",
  "1",
  "2",
  "-1",
  "99",
  "1-2",
  "2.1",
  "x",
  "root",
  " ",
  "1\t2",
  "#",
  "\uFEFF",
];

type Mutation =
  | { kind: "delete" | "duplicate" | "blank" | "bom"; at: number }
  | { kind: "swap"; at: number; with: number }
  | { kind: "field"; at: number; column: number; value: string }
  | { kind: "line"; at: number; value: string }
  | { kind: "bytes"; at: number; bytes: number[] };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom("delete", "duplicate", "blank", "bom"), at: fc.nat() }),
  fc.record({ kind: fc.constant("swap"), at: fc.nat(), with: fc.nat() }),
  fc.record({
    kind: fc.constant("field"),
    at: fc.nat(),
    column: fc.nat({ max: 11 }),
    value: fc.oneof(fc.constantFrom(...FIELD_VALUES), fc.string({ maxLength: 4 })),
  }),
  fc.record({ kind: fc.constant("line"), at: fc.nat(), value: fc.string({ maxLength: 30, unit: "binary" }) }),
  fc.record({
    kind: fc.constant("bytes"),
    at: fc.nat(),
    bytes: fc.array(fc.nat({ max: 255 }), { minLength: 1, maxLength: 4 }),
  }),
);

/** Applies mutations to the base treebank; returns its bytes (some mutations insert raw, maybe invalid, bytes). */
function mutate(muts: Mutation[]): Buffer {
  const lines: (string | Buffer)[] = BASE_LINES.slice();
  for (const m of muts) {
    const at = m.at % lines.length;
    if (m.kind === "delete") lines.splice(at, 1);
    else if (m.kind === "duplicate") lines.splice(at, 0, lines[at]!);
    else if (m.kind === "blank") lines.splice(at, 0, "");
    else if (m.kind === "bom") lines[0] = `\uFEFF${lines[0]!.toString()}`;
    else if (m.kind === "swap")
      [lines[at], lines[m.with % lines.length]] = [lines[m.with % lines.length]!, lines[at]!];
    else if (m.kind === "line") lines[at] = m.value;
    else if (m.kind === "field") {
      const l = lines[at]!;
      const cols = (typeof l === "string" ? l : l.toString("latin1")).split("\t");
      cols[m.column % Math.max(1, cols.length)] = m.value;
      lines[at] = cols.join("\t");
    } else if (m.kind === "bytes") {
      const l = lines[at]!;
      const b = typeof l === "string" ? Buffer.from(l, "utf8") : l;
      const cut = b.length === 0 ? 0 : m.at % b.length;
      lines[at] = Buffer.concat([
        b.subarray(0, cut),
        Buffer.from(m.bytes.filter((x) => x !== 10)),
        b.subarray(cut),
      ]);
    }
    if (lines.length === 0) lines.push("");
  }
  return Buffer.concat(
    lines.map((l) => Buffer.concat([typeof l === "string" ? Buffer.from(l, "utf8") : l, Buffer.from("\n")])),
  );
}

/** Reads bytes like the CLI does; either sentences or a VineparseError naming the file and a line in range. */
function readOutcome(bytes: Buffer, opts: ReadOptions): string {
  const lineCount = bytes.toString("latin1").split("\n").length;
  try {
    const text = decodeUtf8(bytes, "f.conllu");
    const read = [...parseConllu(text, "f.conllu", opts)];
    // No silent garbage: no replacement character the input did not have, no byte-order mark.
    const hadReplacement = bytes.includes(Buffer.from("\uFFFD", "utf8"));
    for (const r of read) {
      for (const l of r.sentence.lines)
        assert.ok(hadReplacement || !l.includes("\uFFFD"), `U+FFFD appeared in ${JSON.stringify(l)}`);
      if (r.sentence.startLine === 1 && bytes[3] !== 0xef)
        assert.ok(r.sentence.lines[0]!.charCodeAt(0) !== 0xfeff, "the byte-order mark was kept");
      const n = r.sentence.words.length;
      assert.ok(n > 0);
      for (let i = 1; i <= n; i++) assert.ok(r.heads[i]! >= -1 && r.heads[i]! <= n);
    }
    return `ok ${read.length}`;
  } catch (e) {
    if (!(e instanceof VineparseError)) throw e;
    assert.equal(e.file, "f.conllu", e.message);
    assert.ok(
      e.line !== undefined && e.line >= 1 && e.line <= lineCount,
      `line ${e.line} of ${lineCount}: ${e.message}`,
    );
    assert.ok(!e.message.includes("\n"), e.message);
    return `error ${e.code} ${e.line}`;
  }
}

test("fuzz: mutated CoNLL-U gives sentences or a located VineparseError, never a trace", () => {
  const modes: ReadOptions[] = [
    {},
    { requireTree: false },
    { requireTree: false, strict: true },
    { onInvalid: "skip" },
  ];
  fc.assert(
    fc.property(
      fc.array(mutation, { minLength: 1, maxLength: 6 }),
      fc.constantFrom(...modes),
      (muts, opts) => {
        readOutcome(mutate(muts), opts);
      },
    ),
    { numRuns: 2000, seed: 1301 },
  );
});

test("fuzz: the streaming reader agrees with the in-memory reader on mutated CoNLL-U", async () => {
  const path = join(tmp, "f.conllu");
  await fc.assert(
    fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (muts) => {
      const bytes = mutate(muts);
      writeFileSync(path, bytes);
      const expected = readOutcome(bytes, {}).replace(/^ok .*/, "ok");
      let got = "ok";
      try {
        for await (const _ of streamConllu(path)) void _;
      } catch (e) {
        if (!(e instanceof VineparseError)) throw e;
        got = `error ${e.code} ${e.line}`;
      }
      assert.equal(got.replace(/^ok .*/, "ok"), expected);
    }),
    { numRuns: 150, seed: 1302 },
  );
});

test("fuzz: chunked strict UTF-8 decoding = whole decoding; errors name the right line", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 60 }),
        fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => new Uint8Array(Buffer.from(s + "\n" + s))),
      ),
      fc.array(fc.nat({ max: 60 }), { maxLength: 6 }),
      (bytes, cuts) => {
        let expected: string;
        try {
          expected = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
          if (expected.charCodeAt(0) === 0xfeff) expected = expected.slice(1);
        } catch {
          expected = "invalid";
        }
        const d = new Utf8StreamDecoder("b");
        let got = "";
        let line = 0;
        try {
          let last = 0;
          for (const c of [...new Set(cuts.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b)) {
            got += d.decode(bytes.subarray(last, c));
            last = c;
          }
          got += d.decode(bytes.subarray(last));
          got += d.end();
        } catch (e) {
          assert.ok(e instanceof VineparseError && e.code === "invalid-utf8");
          got = "invalid";
          line = e.line!;
        }
        assert.equal(got, expected);
        if (got === "invalid") {
          // The line of the first byte that no valid prefix can extend.
          let ok = 0;
          for (let k = 1; k <= bytes.length; k++) {
            try {
              new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, k), { stream: true });
              ok = k;
            } catch {
              break;
            }
          }
          assert.equal(line, 1 + bytes.subarray(0, ok).filter((b) => b === 10).length);
        }
      },
    ),
    { numRuns: 1500, seed: 1303 },
  );
});

// ---------------------------------------------------------------------------------------------
// Model reader

/** Wraps a payload in a valid container header (version, length and checksum). */
function wrap(payload: Uint8Array, version: number): Uint8Array {
  const out = new Uint8Array(24 + payload.length);
  out.set(Buffer.from("VINEPARS", "latin1"));
  const v = new DataView(out.buffer);
  v.setUint32(8, version, true);
  v.setUint32(12, 1, true);
  v.setUint32(16, payload.length, true);
  v.setUint32(20, crc32(payload) >>> 0, true);
  out.set(payload, 24);
  return out;
}

/** Re-wraps a raw version-1 payload in a valid container (new gzip stream, right length and checksum). */
function rewrap(raw: Uint8Array): Uint8Array {
  return wrap(gzipSync(raw, { level: 1 }), 1);
}

/** A version-2 file taken apart: its JSON header and each array's inflated stream. */
interface Exploded {
  json: Uint8Array;
  streams: Uint8Array[];
}

function explode(file: Uint8Array): Exploded {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const jsonZ = v.getUint32(24, true);
  const json = new Uint8Array(inflateRawSync(file.subarray(32, 32 + jsonZ)));
  const dir = (JSON.parse(Buffer.from(json).toString("utf8")) as { arrays: { bytes: number }[] }).arrays;
  const streams: Uint8Array[] = [];
  let at = 32 + jsonZ;
  for (const d of dir) {
    streams.push(new Uint8Array(inflateRawSync(file.subarray(at, at + d.bytes))));
    at += d.bytes;
  }
  return { json, streams };
}

/**
 * Puts a version-2 file back together (deflating every part again); when the JSON still parses, its
 * stream lengths are set to the new ones, so that mutations inside the streams reach the decoder.
 */
function implode(e: Exploded): Uint8Array {
  const zs = e.streams.map((s) => deflateRawSync(s, { level: 1 }));
  let json = e.json;
  try {
    const h = JSON.parse(Buffer.from(json).toString("utf8")) as { arrays: { bytes: number }[] };
    if (h.arrays.length === zs.length) {
      h.arrays.forEach((d, i) => (d.bytes = zs[i]!.length));
      json = Buffer.from(JSON.stringify(h), "utf8");
    }
  } catch {
    // a mutated header stays as it is
  }
  const jz = deflateRawSync(json, { level: 1 });
  const payload = new Uint8Array(8 + jz.length + zs.reduce((a, z) => a + z.length, 0));
  const v = new DataView(payload.buffer);
  v.setUint32(0, jz.length, true);
  v.setUint32(4, json.length, true);
  payload.set(jz, 8);
  let at = 8 + jz.length;
  for (const z of zs) {
    payload.set(z, at);
    at += z.length;
  }
  return wrap(payload, 2);
}

/** Decodes and loads a model like the CLI does; anything but success or a one-line VineparseError fails. */
function loadOutcome(bytes: Uint8Array): string {
  try {
    const m: ModelData = decodeModel(bytes, "m.vpm");
    if (m.kind === "pipeline") bundleFromModelData(m, "m.vpm");
    else if (m.kind === "parser") parserFromModel(m, "m.vpm");
    else if (m.kind === "tagger") taggerFromModelData(m, "m.vpm");
    return "ok";
  } catch (e) {
    assert.ok(e instanceof VineparseError, `not a VineparseError: ${String(e)}`);
    assert.ok(!e.message.includes("\n"), e.message);
    assert.equal(e.file, "m.vpm");
    return e.code;
  }
}

test("fuzz: model files with flipped bytes, truncations or crafted payloads load or fail in one line", () => {
  // Current (version 2) files, and the same models in the version-1 container every reader still reads.
  const v2: Uint8Array[] = [readFileSync(toy.bundle), readFileSync(toy.parser)].map((b) => new Uint8Array(b));
  v2.push(
    encodeModel({
      kind: "x",
      meta: { a: [1, 2] },
      arrays: {
        w: new Int32Array([1, -2, 3]),
        z: new Int16Array([0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1]),
      },
    }),
  );
  const files = [...v2, ...v2.map((f) => encodeModel(decodeModel(f), 1))];
  const version = files.map((f) => new DataView(f.buffer, f.byteOffset).getUint32(8, true));
  assert.deepEqual(version, [2, 2, 2, 1, 1, 1]);
  const raws = files.map((f, k) => (version[k] === 1 ? new Uint8Array(gunzipSync(f.subarray(24))) : null));
  const parts = files.map((f, k) => (version[k] === 2 ? explode(f) : null));
  for (const f of files) assert.equal(loadOutcome(f), "ok");
  fc.assert(
    fc.property(
      fc.nat({ max: files.length - 1 }),
      fc.oneof(
        fc.record({
          kind: fc.constant("flip" as const),
          at: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
          x: fc.integer({ min: 1, max: 255 }),
        }),
        fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
        fc.record({
          kind: fc.constant("payload" as const),
          part: fc.nat(),
          at: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
          x: fc.integer({ min: 1, max: 255 }),
        }),
        fc.record({ kind: fc.constant("cut-payload" as const), part: fc.nat(), at: fc.nat() }),
      ),
      (k, m) => {
        let bytes: Uint8Array;
        if (m.kind === "flip") {
          bytes = files[k]!.slice();
          for (const a of m.at) bytes[a % bytes.length]! ^= m.x;
        } else if (m.kind === "truncate") {
          bytes = files[k]!.subarray(0, m.at % files[k]!.length);
        } else if (raws[k] !== null) {
          const raw = raws[k]!.slice();
          if (m.kind === "payload") {
            // Mostly the JSON header and the start of the arrays, where the structure is.
            const span = Math.min(raw.length, 4 + new DataView(raw.buffer).getUint32(0, true) + 64);
            for (const a of m.at) raw[a % span]! ^= m.x;
            bytes = rewrap(raw);
          } else bytes = rewrap(raw.subarray(0, m.at % raw.length));
        } else {
          // Version 2: mutate the JSON header or one array's stream (its segment modes, bitmaps, values).
          const e = parts[k]!;
          const which = m.part % (e.streams.length + 1);
          const target = which === 0 ? e.json : e.streams[which - 1]!;
          let mutated: Uint8Array;
          if (m.kind === "payload") {
            mutated = target.slice();
            // The JSON: mostly its end, where the array directory is; a stream: its first segment.
            const span = Math.min(mutated.length, which === 0 ? mutated.length : 4200);
            const from = which === 0 ? Math.max(0, mutated.length - 600) : 0;
            for (const a of m.at) if (mutated.length > 0) mutated[from + (a % (span - from || 1))]! ^= m.x;
          } else mutated = target.subarray(0, m.at % (target.length + 1));
          bytes = implode(
            which === 0
              ? { json: mutated, streams: e.streams }
              : { json: e.json, streams: e.streams.map((s, i) => (i === which - 1 ? mutated : s)) },
          );
        }
        loadOutcome(bytes);
      },
    ),
    { numRuns: 600, seed: 1304 },
  );
});

// ---------------------------------------------------------------------------------------------
// Tokenizer

const textArb = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        "The",
        " ",
        "dog",
        "didn't",
        ".",
        "\n",
        "\u0000",
        "\u200d",
        "👨‍👩‍👧‍👦",
        "🇬🇧",
        "e.g.",
        "www.x.com",
        "'s",
        "\ud800",
        "\udc00",
        "́",
        "zum",
        "Zum",
        "ZUM",
        "hausli",
        "geht's",
        "bzw.",
      ),
      { maxLength: 30 },
    )
    .map((a) => a.join("")),
);

/**
 * Asserts that words cover the non-space characters of `text` exactly, in order, never splitting a
 * surrogate pair, and that tokens group consecutive words that tile them. `spelled(token)` says
 * whether a token's words must be their own text (all but a learned tokenizer's dictionary splits).
 */
function checkTokenization(text: string, tok: Tokenization, spelled: (token: string) => boolean): void {
  const { words, tokens } = tok;
  const covered = new Uint8Array(text.length);
  let last = 0;
  for (const w of words) {
    assert.ok(w.start >= last && w.end > w.start && w.end <= text.length, JSON.stringify(w));
    for (let i = w.start; i < w.end; i++) {
      assert.ok(!isSpaceCode(text.charCodeAt(i)), `white space inside ${JSON.stringify(w.form)}`);
      covered[i] = 1;
    }
    // never between the two halves of a surrogate pair
    for (const at of [w.start, w.end]) {
      const hi = text.charCodeAt(at - 1);
      const lo = text.charCodeAt(at);
      assert.ok(!(hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff), `split pair at ${at}`);
    }
    last = w.end;
  }
  for (let i = 0; i < text.length; i++)
    assert.equal(
      covered[i] === 1,
      !isSpaceCode(text.charCodeAt(i)),
      `offset ${i} of ${JSON.stringify(text)}`,
    );
  let next = 0;
  for (const t of tokens) {
    assert.equal(t.firstWord, next);
    assert.ok(t.lastWord >= t.firstWord);
    assert.equal(t.start, words[t.firstWord]!.start);
    assert.equal(t.end, words[t.lastWord]!.end);
    for (let i = t.firstWord; i < t.lastWord; i++) assert.equal(words[i]!.end, words[i + 1]!.start);
    if (spelled(text.slice(t.start, t.end)))
      for (let i = t.firstWord; i <= t.lastWord; i++)
        assert.equal(words[i]!.form, text.slice(words[i]!.start, words[i]!.end));
    next = t.lastWord + 1;
  }
  assert.equal(next, words.length);
}

test("fuzz: tokens cover any Unicode string exactly, with valid offsets", () => {
  fc.assert(
    fc.property(textArb, (text) => {
      const tok = tokenize(text);
      checkTokenization(text, tok, () => true);
      // Sentences split the same text into words that also cover it, in order.
      const sentenceWords = segmentText(text).flatMap((s) => s.words);
      assert.equal(sentenceWords.map((w) => w.form).join(""), tok.words.map((w) => w.form).join(""));
    }),
    { numRuns: 3000, seed: 1305 },
  );
});

test("fuzz: a learned tokenizer's tokens cover any Unicode string exactly, with valid offsets", () => {
  const learned = LearnedTokenizer.train(
    [...parseConllu(tokenizerToy(200, 7), "toy", { requireTree: false })].map((r) => r.sentence),
    { epochs: 3, bits: 14 },
  );
  assert.ok(learned.mwt.size > 0 && learned.tails.size > 0);
  fc.assert(
    fc.property(textArb, (text) => {
      const tok = learned.tokenize(text, 0, text.length);
      // Dictionary splits ("zum" = "zu" + "dem") are the only words that may differ from their text.
      checkTokenization(text, tok, (token) => learned.splitToken(token) === null);
      const sentenceWords = segmentText(text, { segmenter: learned }).flatMap((s) => s.words);
      assert.deepEqual(
        sentenceWords.map((w) => [w.form, w.start, w.end]),
        tok.words.map((w) => [w.form, w.start, w.end]),
      );
    }),
    { numRuns: 3000, seed: 2711 },
  );
});

// ---------------------------------------------------------------------------------------------
// Decoders

const decodeCase = fc.record({
  n: fc.integer({ min: 1, max: 7 }),
  scores: fc.array(
    fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, -1, -Infinity)),
    { minLength: 64, maxLength: 64 },
  ),
  keep: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
  density: fc.constantFrom(0, 0.3, 0.7, 1),
  seed: fc.nat(),
});

function maskOf(n: number, keep: boolean[], density: number): ArcMask {
  const mask = density === 1 ? ArcMask.full(n) : ArcMask.empty(n);
  if (density === 1 || density === 0) return mask;
  const size = n + 1;
  for (let h = 0; h <= n; h++)
    for (let m = 1; m <= n; m++) if (keep[(h * size + m) % 64] === density > 0.5) mask.allow(h, m);
  return mask;
}

/** Asserts a decode result is a well-formed single-rooted tree, projective when asked, using allowed arcs unless it fell back. */
function wellFormed(
  heads: Int32Array,
  n: number,
  projective: boolean,
  fallback: boolean,
  allowed: ArcMask,
): void {
  assert.ok(isTree(heads, n), `not a tree: ${[...heads]}`);
  assert.equal(rootChildren(heads, n), 1, `root children: ${[...heads]}`);
  if (projective) assert.ok(isProjective(heads, n), `not projective: ${[...heads]}`);
  if (!fallback)
    for (let m = 1; m <= n; m++) assert.ok(allowed.allows(heads[m]!, m), `arc ${heads[m]}→${m} was pruned`);
}

test("fuzz: first-order decoders give a well-formed tree for any scores and mask", () => {
  const eisner = new EisnerDecoder();
  const mst = new ChuLiuEdmondsDecoder();
  fc.assert(
    fc.property(decodeCase, ({ n, scores, keep, density }) => {
      const size = n + 1;
      const s = new Float64Array(size * size);
      for (let i = 0; i < s.length; i++) s[i] = scores[i % 64]!;
      const mask = maskOf(n, keep, density);
      const usable = ArcMask.empty(n);
      for (let h = 0; h <= n; h++)
        for (let m = 1; m <= n; m++)
          if (mask.allows(h, m) && s[h * size + m]! > -Infinity) usable.allow(h, m);
      for (const [d, projective] of [
        [eisner, true],
        [mst, false],
      ] as const) {
        const r = d.decode(n, s, mask);
        wellFormed(r.heads, n, projective, r.fallback, usable);
        if (n <= 5) {
          const exists = !enumerateTrees(n, { mask: usable, singleRoot: true, projective }).next().done;
          assert.equal(
            r.fallback,
            !exists,
            `${d.name}: fallback ${r.fallback} but a tree ${exists ? "exists" : "does not exist"}`,
          );
        }
      }
    }),
    { numRuns: 1500, seed: 1306 },
  );
});

test("fuzz: second- and third-order decoders give a well-formed projective tree for any scores and mask", () => {
  const second = new SecondOrderDecoder();
  const third = new ThirdOrderDecoder();
  fc.assert(
    fc.property(decodeCase, fc.constantFrom(1, 1e6), ({ n, keep, density, seed }, scale) => {
      const mask = maskOf(n, keep, density);
      const u = (...xs: number[]) => {
        let h = seed;
        for (const x of xs) h = mix(h, x);
        return (finish(h) / 2147483648 - 1) * scale;
      };
      const scorer = {
        arc: (h: number, m: number) => u(1, h, m),
        sib: (h: number, s: number, m: number) => u(2, h, s, m),
        grand: (g: number, h: number, m: number) => u(3, g, h, m),
        gsib: (g: number, h: number, s: number, m: number) => u(4, g, h, s, m),
      };
      const exists =
        n <= 5 ? !enumerateTrees(n, { mask, singleRoot: true, projective: true }).next().done : null;
      for (const d of [second, third]) {
        const r = d.decode(mask, scorer);
        wellFormed(r.heads, n, true, r.fallback, mask);
        if (exists !== null) assert.equal(r.fallback, !exists);
      }
    }),
    { numRuns: 600, seed: 1307 },
  );
});
