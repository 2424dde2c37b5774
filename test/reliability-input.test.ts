// Issue #13: no stack traces on user errors, no silent garbage. Parser-only models given text to tag,
// crafted model files, invalid UTF-8, byte-order marks, empty or untagged training data, UD errors
// in training and gold data, control characters and emoji in raw text.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { crc32, gzipSync } from "node:zlib";
import { readConlluFile, streamConllu } from "../src/conllu/read.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { VineparseError } from "../src/errors.js";
import { evaluateFiles } from "../src/eval/attachment.js";
import { decodeModel, encodeModel, readModelFile } from "../src/model/model-file.js";
import { trainParser } from "../src/parser/train.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { tokenize } from "../src/pipeline/tokenize.js";
import { Tagger } from "../src/tagger/tagger.js";
import { readWordVectors } from "../src/vectors/word-vectors.js";
import { repoRoot } from "./helpers.js";
import { runCli, runInProcess, toyModels } from "./toy-models.js";

const toy = toyModels();
const tmp = mkdtempSync(join(tmpdir(), "vp-input-"));
after(() => {
  toy.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes a file in the test's temporary directory and returns its path. */
function file(name: string, content: string | Uint8Array): string {
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
}

/** Asserts a failed run printed exactly one line matching `re` and no stack trace. */
function oneLineError(r: { status: number | null; stderr: string }, re: RegExp): void {
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, re);
}

/** A CoNLL-U word row. */
function row(
  id: number,
  form: string,
  head: number | string,
  upos = "NOUN",
  rel = head === 0 ? "root" : "dep",
) {
  return [id, form, form, upos, "NN", "_", head, rel, "_", "_"].join("\t");
}

const TAGGED = [row(1, "the", 2, "DET"), row(2, "dog", 3), row(3, "slept", 0, "VERB"), "", ""].join("\n");
const UNTAGGED = [row(1, "the", 2, "_"), row(2, "dog", 3, "_"), row(3, "slept", 0, "_"), "", ""].join("\n");

test("a parser-only model given text to tag: one line telling what to do", async () => {
  const msg = /this model has no tagger: give tagged CoNLL-U, or a pipeline model/;
  const out = join(tmp, "out.conllu");
  oneLineError(await runInProcess(["parse", "--model", toy.parser, "--text", "the dog slept ."]), msg);
  oneLineError(await runInProcess(["parse", "--model", toy.parser, "--raw", "-"]), msg);
  const tagged = file("tagged.conllu", TAGGED);
  oneLineError(await runInProcess(["parse", "--model", toy.parser, "--input", tagged, "--retag"]), msg);
  const untagged = file("untagged.conllu", UNTAGGED);
  oneLineError(
    await runInProcess(["parse", "--model", toy.parser, "--input", untagged, "--output", out]),
    /untagged\.conllu:1: this model has no tagger/,
  );
  // Tagged input is fine; and the CLI prints the same single line (no stack trace).
  assert.equal(
    (await runInProcess(["parse", "--model", toy.parser, "--input", tagged, "--output", out, "--quiet"]))
      .status,
    0,
  );
  oneLineError(runCli(["parse", "--model", toy.parser, "--raw", "-"], "the dog slept .\n"), msg);
});

/** A model file around a raw payload (JSON length, JSON, arrays), with a valid header and checksum. */
function craft(raw: Uint8Array, patch?: (gz: Buffer) => void): Uint8Array {
  const gz = gzipSync(raw);
  patch?.(gz);
  const out = new Uint8Array(24 + gz.length);
  out.set(Buffer.from("VINEPARS", "latin1"));
  const v = new DataView(out.buffer);
  v.setUint32(8, 1, true);
  v.setUint32(12, 1, true);
  v.setUint32(16, gz.length, true);
  v.setUint32(20, crc32(gz) >>> 0, true);
  out.set(gz, 24);
  return out;
}

/** A raw payload: 4-byte JSON length, the JSON, padding to 8 bytes, then `body`. */
function payload(json: string, body = new Uint8Array(0), jsonLen?: number): Uint8Array {
  const j = Buffer.from(json, "utf8");
  const base = Math.ceil((4 + j.length) / 8) * 8;
  const raw = new Uint8Array(base + body.length);
  new DataView(raw.buffer).setUint32(0, jsonLen ?? j.length, true);
  raw.set(j, 4);
  raw.set(body, base);
  return raw;
}

function corruptCode(bytes: Uint8Array): string {
  try {
    decodeModel(bytes, "m.vpm");
  } catch (e) {
    assert.ok(e instanceof VineparseError, `not a VineparseError: ${String(e)}`);
    assert.ok(!e.message.includes("\n"));
    return e.code;
  }
  return "no error";
}

test("crafted model files with a valid checksum: one-line 'corrupted' errors", () => {
  const dir = JSON.stringify([{ name: "a", dtype: "i32", offset: 0, length: 2 }]);
  const good = payload(`{"kind":"x","meta":{},"arrays":${dir}}`, new Uint8Array(8));
  assert.equal(decodeModel(craft(good)).kind, "x");
  assert.equal(corruptCode(craft(payload("{not json", new Uint8Array(8)))), "model-corrupt");
  assert.equal(corruptCode(craft(payload('{"kind":"x","meta":{}}'))), "model-corrupt"); // no array directory
  assert.equal(
    corruptCode(craft(payload('{"kind":"x","meta":{},"arrays":[{"name":"a"}]}'))),
    "model-corrupt",
  );
  assert.equal(corruptCode(craft(payload("[1,2]"))), "model-corrupt");
  assert.equal(corruptCode(craft(new Uint8Array([1, 0]))), "model-corrupt"); // shorter than its length field
  assert.equal(corruptCode(craft(payload('{"kind":"x"}', new Uint8Array(0), 5000))), "model-corrupt");
  // The directory promises more bytes than there are.
  assert.equal(
    corruptCode(craft(payload(`{"kind":"x","meta":{},"arrays":${dir}}`, new Uint8Array(0)))),
    "model-corrupt",
  );
  // The gzip trailer declares fewer bytes than the payload inflates to: decompression stops there.
  const lying = craft(good, (gz) => gz.writeUInt32LE(8, gz.length - 4));
  assert.equal(corruptCode(lying), "model-corrupt");
  assert.match(
    (() => {
      try {
        decodeModel(lying);
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    })(),
    /corrupted/,
  );
});

test("crafted models with valid containers but missing arrays: one line from every loader", async () => {
  const m = readModelFile(toy.bundle);
  const noArrays = file("no-arrays.vpm", encodeModel({ ...m, arrays: {} }));
  for (const args of [
    ["parse", "--model", noArrays, "--text", "the dog slept ."],
    ["tag", "--model", noArrays, "--input", file("t.conllu", TAGGED)],
  ]) {
    oneLineError(await runInProcess(args), /no-arrays\.vpm: /);
  }
  assert.throws(
    () => loadPipeline(noArrays),
    (e: unknown) => e instanceof VineparseError,
  );
  const p = readModelFile(toy.parser);
  const noMeta = file("no-meta.model", encodeModel({ kind: "parser", meta: { order: 1 }, arrays: p.arrays }));
  assert.throws(
    () => loadPipeline(noMeta),
    (e: unknown) => e instanceof VineparseError,
  );
  assert.throws(
    () =>
      Tagger.load(
        file(
          "t.model",
          encodeModel({ kind: "tagger", meta: { version: 3, mode: "joint", models: [{}] }, arrays: {} }),
        ),
      ),
    (e: unknown) => e instanceof VineparseError,
  );
});

test("a small file that would inflate to a huge payload is stopped early (bounded memory, one line)", () => {
  // 64 MiB of zeros compress to about 65 kB; the gzip trailer declares the size honestly.
  const bomb = file("bomb.vpm", craft(new Uint8Array(64 << 20)));
  const small = file("small.vpm", craft(payload('{"kind":"x","meta":{},"arrays":[]}')));
  const probe = (path: string) => {
    const code = `import { readModelFile } from ${JSON.stringify(join(repoRoot, "dist", "src", "model", "model-file.js"))};
      let code = "ok"; try { readModelFile(${JSON.stringify(path)}); } catch (e) { code = e.code + ": " + e.message; }
      console.log(JSON.stringify({ code, rss: process.resourceUsage().maxRSS / 1024 }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { code: string; rss: number };
  };
  const b = probe(bomb);
  const s = probe(small);
  assert.match(b.code, /^model-corrupt: .*corrupted/);
  assert.equal(s.code, "ok");
  assert.ok(b.rss < s.rss + 32, `the bomb took ${b.rss - s.rss} MiB more than a tiny model`);
});

test("invalid UTF-8 is 'FILE:LINE: invalid UTF-8', never U+FFFD (CoNLL-U, streamed CoNLL-U, raw text, stdin)", async () => {
  const lines = TAGGED.split("\n");
  lines[1] = lines[1]!.replace("dog", "d\xffg");
  const bytes = Buffer.from(lines.join("\n"), "latin1"); // \xff alone is never valid UTF-8
  const bad = file("bad.conllu", bytes);
  const isBad = (e: unknown) =>
    e instanceof VineparseError &&
    e.code === "invalid-utf8" &&
    e.line === 2 &&
    e.message === `${bad}:2: invalid UTF-8`;
  assert.throws(() => readConlluFile(bad), isBad);
  await assert.rejects(async () => {
    for await (const _ of streamConllu(bad)) void _;
  }, isBad);
  oneLineError(await runInProcess(["stats", bad]), /bad\.conllu:2: invalid UTF-8$/);
  oneLineError(
    await runInProcess(["eval", "--gold", bad, "--system", file("ok.conllu", TAGGED)]),
    /bad\.conllu:2: invalid UTF-8$/,
  );
  // Raw text: a truncated two-byte sequence (\xc3 without its continuation) on line 3.
  const raw = file(
    "bad.txt",
    Buffer.concat([Buffer.from("the dog\nslept .\nthe "), Buffer.from([0xc3]), Buffer.from(" cat\n")]),
  );
  const out = join(tmp, "utf8.conllu");
  oneLineError(
    await runInProcess(["parse", "--model", toy.bundle, "--raw", raw, "--output", out, "--quiet"]),
    /bad\.txt:3: invalid UTF-8$/,
  );
  // From stdin, through the CLI.
  oneLineError(
    runCli(["parse", "--model", toy.bundle, "--raw", "-"], readFileSync(raw)),
    /<stdin>:3: invalid UTF-8$/,
  );
  // Word vectors in text form too.
  const vectors = file(
    "vectors.txt",
    Buffer.concat([Buffer.from("dog 0.1 0.2\nca"), Buffer.from([0xe9]), Buffer.from("t 0.3 0.4\n")]),
  );
  assert.throws(
    () => readWordVectors(vectors),
    (e: unknown) => e instanceof VineparseError && e.message === `${vectors}:2: invalid UTF-8`,
  );
  // Valid multi-byte text is untouched.
  assert.equal(
    (
      await runInProcess([
        "parse",
        "--model",
        toy.bundle,
        "--text",
        "the café slept .",
        "--output",
        out,
        "--quiet",
      ])
    ).status,
    0,
  );
  assert.match(readFileSync(out, "utf8"), /\tcafé\t/);
});

test("a leading byte-order mark is always dropped from the output (CoNLL-U before a comment, raw text)", async () => {
  const bom = file("bom.conllu", `\uFEFF# sent_id = 1\n${TAGGED}`);
  const out = join(tmp, "bom-out.conllu");
  assert.equal(
    (await runInProcess(["parse", "--model", toy.bundle, "--input", bom, "--output", out, "--quiet"])).status,
    0,
  );
  assert.match(readFileSync(out, "utf8"), /^# sent_id = 1\n1\tthe\t/);
  assert.equal(
    (await runInProcess(["tag", "--model", toy.bundle, "--input", bom, "--output", out])).status,
    0,
  );
  assert.match(readFileSync(out, "utf8"), /^# sent_id = 1\n1\tthe\t/);
  const raw = file("bom.txt", "\uFEFFthe dog slept .\n");
  assert.equal(
    (await runInProcess(["parse", "--model", toy.bundle, "--raw", raw, "--output", out, "--quiet"])).status,
    0,
  );
  assert.match(readFileSync(out, "utf8"), /^# sent_id = s1\n# text = the dog slept \.\n1\tthe\t/);
});

test("training on zero sentences or on untagged data is an error, not a useless model", async () => {
  const empty = file("empty.conllu", "");
  const blank = file("blank.conllu", "\n\n\n");
  const untagged = file("untagged-train.conllu", UNTAGGED);
  const out = join(tmp, "m.model");
  for (const train of [empty, blank]) {
    oneLineError(
      await runInProcess(["train", "--train", train, "--out", out, "--quiet"]),
      /no training sentences/,
    );
    oneLineError(
      await runInProcess(["tagger", "train", "--train", train, "--out", out]),
      /no training sentences/,
    );
  }
  oneLineError(
    await runInProcess(["train", "--train", untagged, "--out", out, "--quiet"]),
    /untagged-train\.conllu: .*no part-of-speech tags/,
  );
  oneLineError(
    await runInProcess(["tagger", "train", "--train", untagged, "--out", out]),
    /no part-of-speech tags/,
  );
  oneLineError(
    await runInProcess(["tag", "--jackknife", "2", "--input", untagged, "--output", out]),
    /no part-of-speech tags/,
  );
  oneLineError(
    await runInProcess(["tag", "--jackknife", "3", "--input", file("one.conllu", TAGGED), "--output", out]),
    /needs at least 3 sentences/,
  );
  assert.throws(
    () => trainParser([], new Vocabularies()),
    (e: unknown) => e instanceof VineparseError && e.code === "no-training-data",
  );
  assert.throws(
    () => Tagger.train([]),
    (e: unknown) => e instanceof VineparseError && e.code === "no-training-data",
  );
  assert.ok(!existsSync(out));
});

test("two roots, an empty FORM, a comment inside a sentence: stats, train and eval --gold name the line", async () => {
  const good = TAGGED.trimEnd() + "\n\n";
  const out = join(tmp, "strict-out.conllu");
  const cases: [string, string, RegExp][] = [
    [
      "roots",
      [row(1, "the", 0), row(2, "dog", 0), row(3, "slept", 2)].join("\n"),
      /:6: a second word with HEAD 0/,
    ],
    ["form", [row(1, "the", 2), row(2, "", 0), row(3, "slept", 2)].join("\n"), /:6: empty FORM/],
    ["comment", [row(1, "the", 2), "# inside", row(2, "dog", 0)].join("\n"), /:6: comment inside a sentence/],
  ];
  for (const [name, sentence, re] of cases) {
    const path = file(`${name}.conllu`, `${good}${sentence}\n\n`);
    oneLineError(await runInProcess(["stats", path]), re);
    oneLineError(
      await runInProcess(["train", "--train", path, "--out", join(tmp, "x.model"), "--quiet"]),
      re,
    );
    oneLineError(await runInProcess(["eval", "--gold", path, "--system", path]), re);
    oneLineError(await runInProcess(["tagger", "train", "--train", path, "--out", join(tmp, "x.model")]), re);
    // Parsing input is read leniently.
    assert.equal(
      (await runInProcess(["parse", "--model", toy.bundle, "--input", path, "--output", out, "--quiet"]))
        .status,
      0,
    );
  }
  // System output is scored even with two roots (the gold file is the one checked).
  const gold = file(
    "gold2.conllu",
    `${good}${[row(1, "the", 2), row(2, "dog", 0), row(3, "slept", 2)].join("\n")}\n\n`,
  );
  const sys = file(
    "sys2.conllu",
    `${good}${[row(1, "the", 0), row(2, "dog", 0), row(3, "slept", 2)].join("\n")}\n\n`,
  );
  assert.equal(evaluateFiles(gold, sys).sentences, 2);
});

test("raw text: NUL and other control characters are white space; an emoji ZWJ sequence is one token", async () => {
  const forms = (s: string) => tokenize(s).words.map((w) => w.form);
  assert.deepEqual(forms("a\u0000b\u0007c\u007fd\u0085e\u001bf"), ["a", "b", "c", "d", "e", "f"]);
  const family = "👨‍👩‍👧‍👦";
  assert.deepEqual(forms(`We ${family} love it`), ["We", family, "love", "it"]);
  assert.deepEqual(forms(`love${family}!`), ["love", family, "!"]);
  assert.deepEqual(forms("ok 👍🏽 🇬🇧🇫🇷 ❤️‍🔥"), ["ok", "👍🏽", "🇬🇧", "🇫🇷", "❤️‍🔥"]);
  const out = join(tmp, "nul.conllu");
  const raw = file("nul.txt", `the dog\u0000slept ${family} .`);
  const r = await runInProcess(["parse", "--model", toy.bundle, "--raw", raw, "--output", out, "--quiet"]);
  assert.equal(r.status, 0, r.stderr);
  const text = readFileSync(out, "utf8");
  assert.ok(!text.includes("\u0000"), "a NUL reached the output");
  assert.match(text, /# text = the dog slept 👨‍👩‍👧‍👦 \.\n/);
  assert.match(text, new RegExp(`\\n4\\t${family}\\t`));
});
