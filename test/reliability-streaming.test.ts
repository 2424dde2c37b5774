// Issue #13, raw text must stream: sentences come out as the text arrives, the text held stays
// bounded, and the result is the same as for the whole text at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { parseTextStream } from "../src/pipeline/parse-stream.js";
import { Pipeline, toConllu } from "../src/pipeline/pipeline.js";
import { readBundle } from "../src/pipeline/bundle.js";
import { type TokenizedSentence, segmentText } from "../src/pipeline/sentence-split.js";
import { segmentStream, type StreamSegmentOptions } from "../src/pipeline/text-stream.js";
import { startCli, toyModels } from "./toy-models.js";

const toy = toyModels();
test.after(() => toy.cleanup());

/** A sentence with offsets into the whole input, for comparison. */
function absolute(s: TokenizedSentence, offset: number) {
  return {
    start: s.start + offset,
    end: s.end + offset,
    words: s.words.map((w) => [w.form, w.start + offset, w.end + offset, w.spaceAfter]),
    tokens: s.tokens.map((t) => [t.start + offset, t.end + offset, t.firstWord, t.lastWord]),
  };
}

async function streamed(chunks: string[], opts: StreamSegmentOptions) {
  const out = [];
  let held = 0;
  for await (const { text, offset, sentence } of segmentStream(chunks, opts)) {
    out.push(absolute(sentence, offset));
    held = Math.max(held, text.length);
  }
  return { out, held };
}

/** Cuts `text` into pieces at the given (sorted, deduplicated) points. */
function cut(text: string, points: number[]): string[] {
  const ps = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let last = 0;
  for (const p of ps) {
    pieces.push(text.slice(last, p));
    last = p;
  }
  pieces.push(text.slice(last));
  return pieces;
}

const PIECES = [
  "The",
  "dog",
  "didn't",
  "bark",
  "etc.",
  "Mr.",
  "U.S.",
  "1.",
  "e-mail",
  "John's",
  "NASA",
  "ok",
  "www.example.com",
  "5pm",
  "😀",
  "👨‍👩‍👧‍👦",
  "(",
  ")",
  '"',
  ".",
  ".",
  "!",
  "?",
  "...",
  ",",
  ";",
  ":",
  " ",
  " ",
  " ",
  " ",
  "  ",
  "\n",
  "\n",
  "\n\n",
  "\n \n",
  "\t",
  "\r\n",
  "\u0000",
  "Ünïcödé",
  "a",
];

test("property: streaming segmentation = segmenting the whole text, for any cut points (issue #13)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 400, size: "max" }),
      fc.array(fc.nat(), { maxLength: 30, size: "max" }),
      fc.integer({ min: 4, max: 200 }),
      fc.boolean(),
      fc.constantFrom(0, 3, 7, 250),
      async (parts, points, chars, newlineBoundary, maxWords) => {
        const text = parts.join("");
        // Past 16 × chunkChars held without a clean cut, the stream cuts anyway (tested below).
        const chunkChars = Math.max(chars, Math.ceil(text.length / 16) + 1);
        const opts = { chunkChars, newlineBoundary, maxWords };
        const whole = segmentText(text, opts).map((s) => absolute(s, 0));
        const { out } = await streamed(cut(text, points), opts);
        assert.deepEqual(out, whole);
      },
    ),
    { numRuns: 300, seed: 13 },
  );
});

test("the text held while streaming stays bounded, with or without paragraph breaks", async () => {
  const sentence = "The old man did not see the dog near the house, and it barked again. ";
  const chunkChars = 1 << 10;
  for (const sep of ["\n\n", "\n", " "]) {
    const text = (sentence + sep).repeat(3000); // about 200 kB
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 1 << 12) chunks.push(text.slice(i, i + (1 << 12)));
    let n = 0;
    let held = 0;
    for await (const { text: t } of segmentStream(chunks, { chunkChars })) {
      n++;
      held = Math.max(held, t.length);
    }
    assert.equal(n, 3000);
    assert.ok(
      held <= chunkChars + (1 << 12) + 2 * sentence.length,
      `held ${held} chars (separator ${JSON.stringify(sep)})`,
    );
  }
  // No white space at all for a long stretch: still cut, at most 16 × chunkChars held.
  const noSpace = "a,".repeat(40_000);
  let held = 0;
  const words: string[] = [];
  for await (const { text: t, sentence } of segmentStream([noSpace.slice(0, 50_000), noSpace.slice(50_000)], {
    chunkChars: 1000,
  })) {
    held = Math.max(held, t.length);
    for (const w of sentence.words) words.push(w.form);
  }
  assert.ok(held <= 16_000 + 50_000, `held ${held}`);
  assert.equal(words.join(""), noSpace);
});

test("parseTextStream gives the same CoNLL-U and spans as parseText on the whole text", async () => {
  const b = readBundle(toy.bundle);
  const text =
    "the big dog saw a cat . every man slept .\n\nthe old house near the tree sold a book\n" +
    "a happy man ran quickly today . ".repeat(40) +
    "\n\n\nthis idea liked the red car !";
  const whole = new Pipeline(b.tagger, b.parser).parseText(text, { maxWords: 12 });
  const p = new Pipeline(b.tagger, b.parser);
  const pieces = cut(text, [5, 17, 40, 41, 300, 900]);
  const got = [];
  for await (const a of parseTextStream(p, pieces, { maxWords: 12, chunkChars: 64 })) got.push(a);
  assert.equal(got.map(toConllu).join(""), whole.map(toConllu).join(""));
  assert.deepEqual(
    got.map((a) => a.spans),
    whole.map((a) => a.spans),
  );
});

/** Starts a command, feeds `first`, and resolves with stdout as soon as it matches `re` (stdin still open). */
function outputBeforeEnd(args: string[], first: string, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = startCli(args);
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      p.kill();
      reject(
        new Error(
          `no output while the input was still open (stdout: ${JSON.stringify(out)}; stderr: ${err})`,
        ),
      );
    }, 10_000);
    p.stderr.on("data", (d: Buffer) => (err += d.toString()));
    p.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (re.test(out)) {
        clearTimeout(timer);
        p.stdin.end();
        p.on("close", () => resolve(out));
      }
    });
    p.on("close", (code) => {
      clearTimeout(timer);
      if (!re.test(out)) reject(new Error(`exit ${code} without the expected output: ${err}`));
    });
    p.stdin.write(first);
  });
}

test("parse --raw - writes each paragraph's parse while the input is still open", async () => {
  const out = await outputBeforeEnd(
    ["parse", "--model", toy.bundle, "--raw", "-", "--quiet"],
    "the big dog saw a cat .\n\n",
    /# text = the big dog saw a cat \.\n(.*\n)*\n/,
  );
  assert.match(out, /^# sent_id = s1\n/);
});

test("parse --threads 2 writes each block's parse while the input is still open", async () => {
  const row = (i: number, w: string) => `${i}\t${w}\tthe\tDET\tDT\t_\t_\t_\t_\t_`;
  const out = await outputBeforeEnd(
    ["parse", "--model", toy.bundle, "--raw", "-", "--quiet", "--threads", "2"],
    "the big dog saw a cat .\n\n",
    /# text = the big dog saw a cat \.\n(.*\n)*\n/,
  );
  assert.match(out, /^# sent_id = s1\n/);
  await outputBeforeEnd(
    ["parse", "--model", toy.bundle, "--input", "-", "--quiet", "--threads", "2"],
    [row(1, "the"), "", ""].join("\n"),
    /^1\tthe\t/,
  );
});

test("tag writes each sentence while its input is still open", async () => {
  const row = (i: number, w: string) => `${i}\t${w}\t_\t_\t_\t_\t_\t_\t_\t_`;
  await outputBeforeEnd(
    ["tag", "--model", toy.bundle, "--input", "-"],
    [row(1, "the"), row(2, "dog"), row(3, "slept"), "", ""].join("\n"),
    /^1\tthe\t_\tDET\t/,
  );
});
