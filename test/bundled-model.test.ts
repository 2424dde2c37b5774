import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { isTree } from "../src/decode/tree-predicates.js";
import { loadPipeline } from "../src/pipeline/default-model.js";
import { toConllu } from "../src/pipeline/pipeline.js";
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
  // Lemmas and FEATS from the bundle's morph model.
  assert.equal(a.lemmas?.[i("did")], "do");
  assert.equal(a.lemmas?.[i("n't")], "not");
  assert.equal(a.feats?.[i("man")], "Number=Sing");
  assert.equal(b.lemmas?.[b.forms.indexOf("barked")], "bark");
  assert.match(b.feats?.[b.forms.indexOf("barked")] ?? "", /Tense=Past/);
});

test("vineparse parse --text uses the bundled model by default", () => {
  const r = spawnSync(
    process.execPath,
    [join(repoRoot, "dist", "src", "cli", "main.js"), "parse", "--text", "Dogs bark.", "--quiet"],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^# sent_id = s1\n# text = Dogs bark\.\n1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t/);
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

test("fresh vocabularies between blocks: the same output, and the forms held stay bounded", () => {
  // Each text is one block, full of words no earlier text had (names, numbers), as in a long stream.
  // The two kinds of text meet their tags in different orders, so a fresh vocabulary numbers the
  // tags differently from the one before it.
  const texts = Array.from({ length: 12 }, (_, i) =>
    i % 2 === 0
      ? `Ms. Qor${i}vak paid ${1000 + 37 * i} dollars to Zlat${i}ers on ${i + 1} May. ` +
        `The committee of Brenn${i}ia didn't approve the order ${i}x${i * 7}, and Hul${i}an left early.`
      : `Quickly, the ${i}th report from Varn${i}ok was sent! ` +
        `Did they really see ${i * 3} blue cars near Tesh${i}ville yesterday?`,
  );
  const fresh = loadPipeline();
  fresh.maxForms = 8;
  const kept = loadPipeline();
  let most = 0;
  for (const t of texts) {
    assert.equal(fresh.parseText(t).map(toConllu).join(""), kept.parseText(t).map(toConllu).join(""));
    most = Math.max(most, fresh.internedForms);
  }
  // A fresh vocabulary holds the root symbol, at most maxForms + 1 forms before a block, and its block's.
  assert.ok(most <= 8 + 1 + 40, `at most ${most} forms`);
  assert.ok(kept.internedForms > 2 * most, `${kept.internedForms} forms kept, ${most} at most fresh`);
});
