import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { readConlluFile } from "../src/conllu/read.js";
import { applyRule, parseRuleKey, ruleFor, ruleKey, RuleSet } from "../src/morph/edit-rule.js";
import { morphSentence } from "../src/morph/morph-model.js";
import { Rng } from "../src/util/rng.js";
import { fixture } from "./helpers.js";
import { morphToy } from "./morph-toy.js";

const ALPHABET = ["a", "b", "e", "s", "A", "B", "É", "é", "ß", "İ", "-", "1", "ы", "字"];

function randomString(rng: Rng, min: number): string {
  const n = min + rng.int(7);
  let s = "";
  for (let i = 0; i < n; i++) s += ALPHABET[rng.int(ALPHABET.length)]!;
  return s;
}

test("a rule reproduces the lemma of its own (form, lemma) pair: random strings", () => {
  const rng = new Rng(7);
  for (let k = 0; k < 5000; k++) {
    const form = randomString(rng, 1);
    const lemma =
      rng.next() < 0.5
        ? randomString(rng, 1)
        : form.toLowerCase().slice(0, 1 + rng.int(form.length)) + randomString(rng, 0);
    if (lemma.length === 0) continue;
    const r = ruleFor(form, lemma);
    assert.equal(applyRule(r, form), lemma, `${form} → ${lemma}: ${ruleKey(r)}`);
    assert.deepEqual(parseRuleKey(ruleKey(r)), r);
  }
});

test("a rule reproduces the lemma of its own pair: fixture and toy treebank", () => {
  const sentences = [
    ...readConlluFile(fixture("small.conllu")).map((r) => morphSentence(r.sentence)),
    ...[...parseConllu(morphToy(200, 3), "toy")].map((r) => morphSentence(r.sentence)),
  ];
  let pairs = 0;
  for (const s of sentences)
    for (let i = 0; i < s.words.length; i++) {
      assert.equal(applyRule(ruleFor(s.words[i]!, s.lemmas[i]!), s.words[i]!), s.lemmas[i]);
      pairs++;
    }
  assert.ok(pairs > 500);
});

test("rules generalize: suffix and case edits, prefixes", () => {
  assert.equal(applyRule(ruleFor("Cities", "city"), "Ladies"), "lady");
  assert.equal(applyRule(ruleFor("walked", "walk"), "jumped"), "jump");
  assert.equal(applyRule(ruleFor("gemacht", "machen"), "gesagt"), "sagen");
  assert.equal(applyRule(ruleFor("walked", "walk"), "jumps"), null, "strips a suffix the form lacks");
  assert.equal(applyRule(ruleFor("went", "go"), "sent"), null);
});

test("RuleSet.applicable lists exactly the rules that apply", () => {
  const rs = new RuleSet();
  const pairs = [
    ["cats", "cat"],
    ["cities", "city"],
    ["went", "go"],
    ["The", "the"],
    ["ran", "run"],
    ["boxes", "box"],
    ["a", "a"],
  ];
  for (const [f, l] of pairs) rs.add(ruleFor(f!, l!));
  const out = new Int32Array(64);
  for (const form of ["dogs", "ladies", "went", "Foxes", "x", "ran", "ABC", "é"]) {
    const n = rs.applicable(form, out);
    const got = [...out.subarray(0, n)];
    const want = rs.rules.map((r, i) => (applyRule(r, form) !== null ? i : -1)).filter((i) => i >= 0);
    assert.deepEqual(got, want, form);
  }
});
