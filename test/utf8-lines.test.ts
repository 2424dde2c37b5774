// readUtf8Lines (the streaming CoNLL-U reader's input): the same lines as decoding the whole file and
// splitting it at "\n", whatever the chunk size (chunks cut lines and multi-byte sequences), the
// errors of readUtf8Chunks, and lines that are strings of their own (no slice of a chunk).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu, streamConllu } from "../src/conllu/read.js";
import { VineparseError } from "../src/errors.js";
import { decodeUtf8, readUtf8Lines } from "../src/util/utf8.js";
import { fixture } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "vp-lines-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const p = join(tmp, name);
  writeFileSync(p, bytes);
  return p;
}

async function lines(path: string, chunk: number): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of readUtf8Lines(path, chunk)) out.push(...batch);
  return out;
}

/** What the lines must be: the decoded text split at "\n", without a last empty line. */
function expected(bytes: Uint8Array): string[] {
  const parts = decodeUtf8(bytes, "<x>").split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

test("readUtf8Lines gives the lines of the decoded text at any chunk size", async () => {
  const texts = [
    "\ufeff# text = naïve “quotes” — 🙂\r\n1\tcafé\t_\r\n\r\nlast line without newline ü",
    "a\n\nb\n",
    "",
    "\n",
    "one line",
    "ends in two newlines\n\n",
  ];
  for (const [i, t] of texts.entries()) {
    const bytes = Buffer.from(t, "utf8");
    const p = file(`t${i}.txt`, bytes);
    for (const chunk of [1, 2, 3, 5, 64, 1 << 16])
      assert.deepEqual(await lines(p, chunk), expected(bytes), `text ${i}, chunks of ${chunk}`);
  }
});

test("readUtf8Lines: invalid and truncated UTF-8 are the errors of readUtf8Chunks", async () => {
  const bad = file(
    "bad.txt",
    Buffer.concat([Buffer.from("ok\nfine\nba"), Buffer.from([0xff]), Buffer.from("d\n")]),
  );
  const cut = file("cut.txt", Buffer.concat([Buffer.from("ok\nfine\nthe "), Buffer.from([0xe2, 0x82])]));
  for (const chunk of [1, 4, 1 << 16]) {
    await assert.rejects(
      () => lines(bad, chunk),
      (e: unknown) =>
        e instanceof VineparseError && e.code === "invalid-utf8" && e.message === `${bad}:3: invalid UTF-8`,
    );
    await assert.rejects(
      () => lines(cut, chunk),
      (e: unknown) =>
        e instanceof VineparseError &&
        e.code === "invalid-utf8" &&
        e.message === `${cut}:3: invalid UTF-8 (truncated character at the end)`,
    );
  }
});

test("streamConllu reads what parseConllu reads from the decoded text", async () => {
  const path = fixture("small.conllu");
  const text = decodeUtf8(readFileSync(path), path);
  const streamed = [];
  for await (const r of streamConllu(path)) streamed.push(r);
  assert.deepEqual(streamed, [...parseConllu(text, path)]);
});
