import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseConllu, readConlluFile, streamConllu } from "../src/conllu/read.js";
import { formatSentence } from "../src/conllu/write.js";
import { Rng } from "../src/util/rng.js";
import { randomHeads, sharedUd, singleRooted } from "./helpers.js";

/** Options of `randomConllu`. */
export interface RandomConlluOptions {
  sentences: number;
  maxLength?: number;
}

const FORMS = [
  "a",
  "the",
  "Dog",
  "ran",
  "ő",
  "é",
  "中文",
  "😀",
  "x_y",
  "—",
  ",",
  ".",
  "can't",
  "don't",
  "1,000",
];
const COMMENTS = ["# sent_id = ", "# text = ", "# newpar", "# newdoc id = d", "#", "# note: tabs\tinside"];

function pick<T>(rng: Rng, a: readonly T[]): T {
  return a[rng.int(a.length)]!;
}

/**
 * Random well-formed CoNLL-U text: random trees with random comments, multiword-token ranges and
 * empty nodes, random optional columns; blank-line separated, ending with a blank line.
 */
export function randomConllu(rng: Rng, opts: RandomConlluOptions): string {
  const maxLength = opts.maxLength ?? 20;
  const out: string[] = [];
  for (let s = 0; s < opts.sentences; s++) {
    const n = 1 + rng.int(maxLength);
    const heads = singleRooted(randomHeads(rng, n));
    const nComments = rng.int(4);
    for (let c = 0; c < nComments; c++) out.push(pick(rng, COMMENTS) + (rng.int(2) === 0 ? String(s) : ""));
    let i = 1;
    let mwtEnd = 0;
    while (i <= n) {
      // Multiword token covering i..j (ranges never overlap).
      if (i < n && i > mwtEnd && rng.next() < 0.15) {
        const j = Math.min(n, i + 1 + rng.int(2));
        mwtEnd = j;
        out.push([`${i}-${j}`, pick(rng, FORMS), "_", "_", "_", "_", "_", "_", "_", "_"].join("\t"));
      }
      const form = pick(rng, FORMS);
      const feats = rng.int(3) === 0 ? "Number=Sing|Person=3" : "_";
      const misc = rng.int(4) === 0 ? "SpaceAfter=No" : "_";
      const deps = rng.int(2) === 0 ? `${heads[i]}:dep` : "_";
      const rel = heads[i] === 0 ? "root" : pick(rng, ["nsubj", "obj", "det", "punct", "nmod:poss"]);
      const upos = form === "," || form === "." ? "PUNCT" : pick(rng, ["NOUN", "VERB", "DET", "ADP"]);
      out.push([i, form, form.toLowerCase(), upos, "_", feats, heads[i], rel, deps, misc].join("\t"));
      // Empty node after word i.
      if (rng.next() < 0.1) {
        const k = 1 + rng.int(2);
        for (let e = 1; e <= k; e++) {
          out.push([`${i}.${e}`, "elided", "_", "VERB", "_", "_", "_", "_", `${i}:conj`, "_"].join("\t"));
        }
      }
      i++;
    }
    out.push("");
  }
  return out.join("\n") + "\n";
}

const tmp = mkdtempSync(join(tmpdir(), "vineparse-conllu-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("property: random well-formed CoNLL-U survives read → write byte for byte", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const text = randomConllu(new Rng(seed), { sentences: 1 + (seed % 7) });
    const read = [...parseConllu(text, `seed-${seed}`)];
    assert.equal(read.length, 1 + (seed % 7));
    assert.equal(read.map((r) => formatSentence(r.sentence)).join(""), text, `seed ${seed}`);
    // Writing the heads and relations they already have is also the identity.
    const annotated = read
      .map((r) => {
        const rels = ["", ...r.sentence.words.map((c) => c[7]!)];
        return formatSentence(r.sentence, { heads: r.heads, deprels: rels });
      })
      .join("");
    assert.equal(annotated, text, `seed ${seed} (annotated)`);
  }
});

test("property: the generator produces every kind of line it promises", () => {
  const text = randomConllu(new Rng(99), { sentences: 200 });
  assert.match(text, /^[0-9]+-[0-9]+\t/m);
  assert.match(text, /^[0-9]+\.[0-9]+\t/m);
  assert.match(text, /^#/m);
  const nonProjective = [...parseConllu(text)].some((r) => {
    const h = r.heads;
    for (let m = 1; m < h.length; m++) {
      for (let k = Math.min(h[m]!, m) + 1; k < Math.max(h[m]!, m); k++) {
        let j = k;
        while (j !== 0 && j !== h[m]) j = h[j]!;
        if (j !== h[m]) return true;
      }
    }
    return false;
  });
  assert.ok(nonProjective, "some random trees are non-projective");
});

async function collect(path: string, opts = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const r of streamConllu(path, opts))
    out.push(`${r.sentence.startLine}|${formatSentence(r.sentence)}`);
  return out;
}

test("streamConllu equals the synchronous reader across chunk boundaries (multi-MB file)", async () => {
  // ~3 MB of random sentences with multi-byte characters, so 1 MB chunks split lines and characters.
  const text = randomConllu(new Rng(5), { sentences: 12000, maxLength: 30 });
  assert.ok(Buffer.byteLength(text) > 2 << 20, `only ${Buffer.byteLength(text)} bytes`);
  const path = join(tmp, "big.conllu");
  writeFileSync(path, text);
  const sync = readConlluFile(path).map((r) => `${r.sentence.startLine}|${formatSentence(r.sentence)}`);
  const streamed = await collect(path);
  assert.equal(streamed.length, sync.length);
  assert.ok(
    streamed.every((s, i) => s === sync[i]),
    "streamed sentences differ",
  );
  assert.equal(streamed.map((s) => s.slice(s.indexOf("|") + 1)).join(""), text);
});

test("streamConllu: no final newline, skip mode, and errors with the same lines as the sync reader", async () => {
  const good = "1\ta\ta\tX\t_\t_\t0\troot\t_\t_";
  const bad = "1\ta\ta\tX\t_\t_\t2\troot\t_\t_";
  const path = join(tmp, "mixed.conllu");
  writeFileSync(path, `${good}\n\n${bad}\n\n# last\n${good}`);
  const warnings: number[] = [];
  const opts = {
    onInvalid: "skip" as const,
    onWarning: (e: { line?: number }) => warnings.push(e.line ?? 0),
  };
  const streamed = await collect(path, opts);
  assert.deepEqual(
    streamed.map((s) => Number(s.split("|")[0])),
    [1, 5],
  );
  assert.deepEqual(warnings, [3]);
  assert.deepEqual(
    readConlluFile(path, { onInvalid: "skip" }).map((r) => r.sentence.startLine),
    [1, 5],
  );
  await assert.rejects(collect(path), { code: "conllu-head", line: 3, file: path });
  await assert.rejects(collect(join(tmp, "absent.conllu")), { code: "no-file" });
});

test(
  "streamConllu equals the synchronous reader on shared UD files",
  {
    skip: sharedUd() === null,
  },
  async () => {
    const root = sharedUd()!;
    for (const path of [join(root, "en_ewt", "train.conllu"), join(root, "hu_szeged", "dev.conllu")]) {
      const sync = readConlluFile(path);
      let i = 0;
      for await (const r of streamConllu(path)) {
        const s = sync[i++]!;
        assert.equal(r.sentence.startLine, s.sentence.startLine);
        assert.deepEqual(r.sentence.lines, s.sentence.lines);
        assert.deepEqual(r.heads, s.heads);
      }
      assert.equal(i, sync.length, path);
    }
  },
);
