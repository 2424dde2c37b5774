import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { isTree } from "../src/decode/tree-predicates.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { repoRoot } from "./helpers.js";

test("the bundled English model parses raw text into sensible trees", () => {
  const p = loadPipeline();
  const [a, b] = p.parseText("The old man didn't see the dog. It barked loudly!");
  assert.ok(a !== undefined && b !== undefined);
  assert.deepEqual(a.forms.slice(1), ["The", "old", "man", "did", "n't", "see", "the", "dog", "."]);
  assert.ok(isTree(a.heads) && isTree(b.heads));
  const i = (w: string) => a.forms.indexOf(w);
  assert.equal(a.upos[i("man")], "NOUN");
  assert.equal(a.heads[i("see")], 0); // root
  assert.equal(a.heads[i("man")], i("see"));
  assert.equal(a.deprels[i("man")], "nsubj");
  assert.equal(a.heads[i("dog")], i("see"));
  assert.equal(a.deprels[i("dog")], "obj");
  assert.equal(a.heads[i("old")], i("man"));
});

test("vineparse parse --text uses the bundled model by default", () => {
  const r = spawnSync(
    process.execPath,
    [join(repoRoot, "dist", "src", "cli", "main.js"), "parse", "--text", "Dogs bark.", "--quiet"],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^# sent_id = s1\n# text = Dogs bark\.\n1\tDogs\t_\tNOUN\t/);
});

test("vineparse tag --model accepts a pipeline bundle and uses its tagger", () => {
  const input =
    ["They", "bark", "loudly", "."]
      .map((w, i) => `${i + 1}\t${w}\t_\t_\t_\t_\t${i === 1 ? 0 : 2}\tdep\t_\t_\n`)
      .join("") + "\n";
  const r = spawnSync(
    process.execPath,
    [
      join(repoRoot, "dist", "src", "cli", "main.js"),
      "tag",
      "--model",
      join(repoRoot, "models", "en_ewt.vpm"),
      "--input",
      "-",
    ],
    { encoding: "utf8", input },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^1\tThey\t_\tPRON\tPRP\t/);
  assert.match(r.stdout, /\n2\tbark\t_\tVERB\tVBP\t/);
});
