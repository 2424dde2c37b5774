import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { trainParser } from "../src/parser/train.js";
import { writeBundle } from "../src/pipeline/bundle.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { toJson } from "../src/pipeline/pipeline.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { LenVinePruner } from "../src/prune/len-vine.js";
import { TopKPruner } from "../src/prune/top-k.js";
import { startViewServer } from "../src/view/server.js";
import { startPageServer } from "../bench/chromium-harness.js";
import { trainToyPair } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found: the browser test needs Chromium (apt-get install -y chromium)`;

/** The text the page parses: two sentences of the toy grammar, and characters that need escaping in URL and DOM. */
const TEXT = `the old dog & the cat slept in the house . a man saw "the red car" today !`;

/**
 * Writes a toy bundle (tagger + first-order parser) whose parser carries a two-pass cascade (a
 * length vine, then first-order top-k), so that the page runs tagging, pruning and parsing.
 */
function toyCascadeBundle(dir: string): string {
  const { tagger, parser } = trainToyPair(toyTreebank(150, 5));
  parser.cascade = new PruningCascade([new LenVinePruner(4), new TopKPruner(parser.quantizedArcWeights, 2)]);
  const path = join(dir, "toy-cascade.vpm");
  writeBundle(path, { tagger, parser, info: { treebank: "toy" } });
  return path;
}

/** Text content of the element with this id in a DOM dump (entities decoded), or null. */
function elementText(dom: string, id: string): string | null {
  const m = new RegExp(`<pre id="${id}"[^>]*>([\\s\\S]*?)</pre>`).exec(dom);
  if (m === null) return null;
  return m[1]!.replace(/&(lt|gt|quot|#39|nbsp|amp);/g, (_, e: string) =>
    e === "lt"
      ? "<"
      : e === "gt"
        ? ">"
        : e === "quot"
          ? '"'
          : e === "#39"
            ? "'"
            : e === "nbsp"
              ? "\u00a0"
              : "&",
  );
}

/** Runs headless Chromium on `url` and returns the DOM it dumps once the page has settled. */
function dumpDom(url: string, headless: string, profile: string): Promise<string> {
  const args = [
    headless,
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-extensions",
    `--user-data-dir=${profile}`,
    "--virtual-time-budget=20000",
    "--dump-dom",
    url,
  ];
  return new Promise((ok, fail) => {
    // Asynchronous: the server answering Chromium runs in this process.
    execFile(CHROMIUM, args, { timeout: 60000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err !== null && stdout === "")
        fail(new Error(`chromium failed: ${err.message}\n${stderr.slice(-2000)}`));
      else ok(stdout);
    });
  });
}

test(
  "the page parses in headless Chromium exactly as the pipeline does in Node",
  { skip, timeout: 180000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "vp-view-browser-"));
    const server = await startViewServer({ model: toyCascadeBundle(dir), port: 0 });
    try {
      const url = `${server.url}?text=${encodeURIComponent(TEXT)}`;
      let dom = "";
      for (const headless of ["--headless", "--headless=new"]) {
        dom = await dumpDom(url, headless, join(dir, `profile${headless.length}`));
        if (/<body[^>]* data-state="(parsed|error)"/.test(dom)) break;
      }
      const error = /<p id="error"[^>]*>([^<]*)</.exec(dom)?.[1] ?? "";
      assert.match(dom, /<body[^>]* data-state="parsed"/, `page state; error line: ${error}`);

      // The same text through the same model in Node.
      const pipeline = loadPipeline(join(dir, "toy-cascade.vpm"));
      const sentences = pipeline.parseText(TEXT);
      assert.equal(sentences.length, 2);
      const expected = sentences.map(toJson);
      const got = JSON.parse(elementText(dom, "result-json") ?? "null") as typeof expected;
      assert.ok(Array.isArray(got), "#result-json holds an array");
      assert.deepEqual(
        got.map((s) => s.words.map((w) => [w.form, w.head, w.deprel])),
        expected.map((s) => s.words.map((w) => [w.form, w.head, w.deprel])),
        "heads and relations",
      );
      assert.deepEqual(got, expected, "every field of toJson");

      // The cascade ran in the browser: the same stages, with the same arcs left.
      const stages = sentences.map((a) =>
        pipeline.pruningStages(a).map((s) => ({ name: s.name, kept: s.kept })),
      );
      assert.deepEqual(
        stages[0]!.map((s) => s.name),
        ["all arcs", "lenvine", "topk"],
      );
      assert.ok(stages[0]![2]!.kept < stages[0]![0]!.kept, "the cascade removes arcs");
      assert.deepEqual(JSON.parse(elementText(dom, "result-stages") ?? "null"), stages);

      // One arc diagram and one pruning grid per sentence, an arc per word.
      assert.equal(dom.match(/<svg[^>]* class="arc-diagram"/g)?.length, 2);
      assert.equal(dom.match(/<svg[^>]* class="pruning-grid"/g)?.length, 2);
      const words = expected.reduce((k, s) => k + s.words.length, 0);
      assert.equal(dom.match(/<g class="arc[ "]/g)?.length, words);
      assert.match(dom, /<p id="status">Model loaded/);
      // The page's Content-Security-Policy lets it compile the WebAssembly kernels.
      assert.match(dom, /WebAssembly SIMD kernels: on\./);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("an error in the page is one line, and the state says so", { skip, timeout: 120000 }, async () => {
  // A model without a tagger cannot parse raw text: the page shows the pipeline's error.
  const dir = mkdtempSync(join(tmpdir(), "vp-view-browser-"));
  const read = [...parseConllu(toyTreebank(40, 3))];
  const vocab = new Vocabularies();
  const { parser } = trainParser(
    read.map((r) => toSentence(r, vocab)),
    vocab,
    { epochs: 1, bits: 14, labelBits: 8 },
  );
  const model = join(dir, "parser.model");
  parser.save(model);
  const server = await startViewServer({ model, port: 0 });
  try {
    const dom = await dumpDom(`${server.url}?text=the%20dog%20slept%20.`, "--headless", join(dir, "profile"));
    assert.match(dom, /<body[^>]* data-state="error"/);
    const line = /<p id="error"[^>]*>([^<]*)</.exec(dom)?.[1] ?? "";
    assert.match(line, /^Error: .*no tagger/);
    assert.doesNotMatch(line, /\n/);
    assert.match(dom, /this model cannot parse raw text/);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A page that parses a text in a module Web Worker with the browser entry and posts the result. */
const WORKER_PAGE = `<!doctype html><meta charset="utf-8"><title>worker</title>
<script type="module">
const worker = new Worker("/worker.js", { type: "module" });
worker.onmessage = (e) => fetch("/result", { method: "POST", body: JSON.stringify(e.data) });
worker.onerror = (e) => fetch("/result", { method: "POST", body: JSON.stringify({ error: e.message }) });
worker.postMessage(${JSON.stringify(TEXT)});
</script>`;
const WORKER_JS = `import { loadPipelineFromBytes, toJson, wasmKernels } from "/dist/src/browser.js";
const pipeline = fetch("/model")
  .then((r) => r.arrayBuffer())
  .then((b) => loadPipelineFromBytes(new Uint8Array(b), "model"));
self.onmessage = async (e) => {
  try {
    self.postMessage({
      inWorker: typeof document === "undefined",
      kernels: wasmKernels(),
      sentences: (await pipeline).parseText(e.data).map(toJson),
    });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};`;

test("the browser entry parses in a module Web Worker as in Node", { skip, timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-view-worker-"));
  const model = toyCascadeBundle(dir);
  const server = await startPageServer({
    "/worker.html": () => WORKER_PAGE,
    "/worker.js": () => WORKER_JS,
    "/model": () => readFileSync(model),
  });
  try {
    const got = (await server.run("/worker.html", 120_000)) as {
      kernels?: unknown;
      inWorker?: boolean;
      sentences?: unknown;
      error?: string;
    };
    assert.equal(got.error, undefined);
    assert.equal(got.inWorker, true);
    assert.deepEqual(got.kernels, { tokenScores: true, arcNetwork: true, labels: true });
    assert.deepEqual(got.sentences, loadPipeline(model).parseText(TEXT).map(toJson));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
