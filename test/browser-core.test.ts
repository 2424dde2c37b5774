import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { loadPipelineFromBytes, toConllu, VineparseError } from "../src/browser.js";
import { encodeModel } from "../src/model/model-file.js";
import { DEFAULT_MODEL, loadPipeline } from "../src/pipeline/default-model.js";
import { repoRoot } from "./helpers.js";

/**
 * The modules `file` imports statically, transitively (relative specifiers), and every specifier
 * that is not relative (a `node:` module or a package), and every dynamic import, by importing file.
 */
function importGraph(file: string): { modules: Set<string>; external: string[]; dynamic: string[] } {
  const modules = new Set<string>();
  const external: string[] = [];
  const dynamic: string[] = [];
  const visit = (f: string): void => {
    if (modules.has(f)) return;
    modules.add(f);
    const src = readFileSync(f, "utf8");
    const where = relative(repoRoot, f);
    for (const m of src.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)";|^import\s+"([^"]+)";/gm)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith(".")) visit(resolve(dirname(f), spec));
      else external.push(`${where} → ${spec}`);
    }
    for (const m of src.matchAll(/import\(\s*(["'`])([^"'`]*)\1\s*\)/g)) dynamic.push(`${where} → ${m[2]}`);
    if (/\brequire\(/.test(src)) external.push(`${where} → require()`);
  };
  visit(file);
  return { modules, external, dynamic };
}

test("the browser entry's static import graph holds no Node.js module; only model files' Node side is imported, on Node", () => {
  const g = importGraph(join(repoRoot, "dist", "src", "browser.js"));
  assert.ok(g.modules.size > 50, `${g.modules.size} modules`); // the parser, tagger, tokenizer and cascade
  assert.deepEqual(g.external, []);
  // model-file.js imports zlib and the file helpers only when running on Node.
  assert.deepEqual(g.dynamic.sort(), [
    "dist/src/model/model-file.js → ../util/atomic-write.js",
    "dist/src/model/model-file.js → ../util/read-file.js",
    "dist/src/model/model-file.js → node:zlib",
  ]);
  const src = readFileSync(join(repoRoot, "dist", "src", "model", "model-file.js"), "utf8");
  assert.match(src, /const onNode = typeof process !== "undefined"/);
  // The CLI's graph, by contrast, does reach Node's modules (the check can tell them apart).
  assert.ok(importGraph(join(repoRoot, "dist", "src", "cli", "cmd-parse.js")).external.length > 0);
});

test("loadPipelineFromBytes parses as loadPipeline does (the bundled model), and shows each pass's arcs", async () => {
  const bytes = new Uint8Array(readFileSync(DEFAULT_MODEL));
  const fromBytes = await loadPipelineFromBytes(bytes, "en_ewt.vpm");
  const fromFile = loadPipeline(DEFAULT_MODEL);
  const text =
    "The quick brown fox jumped over the lazy dog near the river bank yesterday. " +
    "I would have given it to her if she had asked me politely, but she never did.";
  const a = fromBytes.parseText(text);
  const b = fromFile.parseText(text);
  assert.equal(a.length, 2);
  assert.deepEqual(a.map(toConllu), b.map(toConllu));

  // Stages: all arcs, then one per pass of the bundle's cascade, each a subset of the one before.
  const passes = fromBytes.cascade.passes;
  assert.ok(passes.length >= 1);
  for (const s of a) {
    const n = s.forms.length - 1;
    const stages = fromBytes.pruningStages(s);
    assert.deepEqual(
      stages.map((t) => t.name),
      ["all arcs", ...passes.map((p) => p.kind)],
    );
    assert.equal(stages[0]!.kept, n * n);
    for (let i = 0; i < stages.length; i++) {
      const t = stages[i]!;
      assert.equal(t.bits.length, (n + 1) * (n + 1));
      assert.equal(
        t.bits.reduce((x, y) => x + y, 0),
        t.kept,
      );
      if (i > 0) {
        for (let c = 0; c < t.bits.length; c++)
          assert.ok(t.bits[c]! <= stages[i - 1]!.bits[c]!, `stage ${i} adds an arc`);
        assert.ok(t.description.length > 0);
      }
    }
    const last = stages.at(-1)!;
    assert.ok(last.kept < n * n, "the cascade prunes something");
    // The parse is the best tree under the last stage's arcs: every arc of it survived.
    if (!s.fallback) for (let m = 1; m <= n; m++) assert.equal(last.bits[s.heads[m]! * (n + 1) + m], 1);
  }
});

test("loadPipelineFromBytes: bad bytes and other kinds of model are one-line errors naming the model", async () => {
  const cases: [Uint8Array, string][] = [
    [new TextEncoder().encode("not a model at all"), "model-format"],
    [encodeModel({ kind: "tagger-ish", meta: {}, arrays: {} }), "model-kind"],
  ];
  for (const [bytes, code] of cases) {
    await assert.rejects(loadPipelineFromBytes(bytes, "x.vpm"), (e: unknown) => {
      assert.ok(e instanceof VineparseError);
      assert.equal(e.code, code);
      assert.equal(e.file, "x.vpm");
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
  }
});
