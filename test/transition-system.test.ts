import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConllu } from "../src/conllu/read.js";
import { type Sentence, toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { isProjective as noCrossingArcs, isTree, rootChildren } from "../src/decode/tree-predicates.js";
import { TransitionParser } from "../src/transition/parser.js";
import {
  classCount,
  countDependents,
  oracle,
  oracleApplied,
  projectivize,
  State,
} from "../src/transition/system.js";
import { Rng } from "../src/util/rng.js";
import { randomHeads, singleRooted } from "./helpers.js";
import { toyTreebank } from "./toy-treebank.js";

/** A random projective single-rooted tree over n words: each span's head takes nested sub-spans. */
function randomProjective(rng: Rng, n: number): Int32Array {
  const heads = new Int32Array(n + 1);
  heads[0] = -1;
  // Heads the words lo..hi (a non-empty span), all dependents of `head`, as consecutive subtrees.
  const span = (lo: number, hi: number, head: number, single: boolean): void => {
    while (lo <= hi) {
      const end = single ? hi : lo + rng.int(hi - lo + 1);
      const r = lo + rng.int(end - lo + 1);
      heads[r] = head;
      if (lo < r) span(lo, r - 1, r, false);
      if (r < end) span(r + 1, end, r, false);
      lo = end + 1;
    }
  };
  if (n > 0) span(1, n, 0, true);
  return heads;
}

/** Runs the static oracle from the initial configuration; returns the state and the transitions taken. */
function oracleDerivation(
  head: Int32Array,
  label: Int32Array,
  n: number,
  labels: number,
): { st: State; steps: number } {
  const st = new State().init(n, labels);
  const pending = new Int32Array(n + 1);
  countDependents(head, n, pending);
  let steps = 0;
  while (!st.done) {
    const c = oracle(st, head, label, pending);
    assert.ok(st.legal(c), `oracle chose an illegal transition ${c}`);
    st.apply(c);
    oracleApplied(st, c, pending);
    steps++;
    assert.ok(steps <= 2 * n, "derivation longer than 2n");
  }
  return { st, steps };
}

test("the static oracle reproduces random projective single-rooted trees, labels included, in 2n steps", () => {
  const rng = new Rng(7);
  for (let trial = 0; trial < 3000; trial++) {
    const n = 1 + rng.int(30);
    const head = randomProjective(rng, n);
    assert.ok(isTree(head, n) && rootChildren(head, n) === 1 && noCrossingArcs(head, n));
    const L = 1 + rng.int(6);
    const label = new Int32Array(n + 1);
    for (let m = 1; m <= n; m++) label[m] = rng.int(L);
    const { st, steps } = oracleDerivation(head, label, n, L);
    assert.equal(steps, 2 * n);
    for (let m = 1; m <= n; m++) {
      assert.equal(st.heads[m], head[m], `head of ${m} (n=${n}, trial ${trial})`);
      assert.equal(st.rel[m], label[m]);
    }
  }
});

test("the static oracle reproduces every tree of the toy treebank", () => {
  const vocab = new Vocabularies();
  const sentences = [...parseConllu(toyTreebank(300, 5))].map((r) => toSentence(r, vocab));
  for (const s of sentences) {
    assert.ok(noCrossingArcs(s.head, s.n));
    const { st } = oracleDerivation(s.head, s.deprel, s.n, vocab.deprel.size);
    for (let m = 1; m <= s.n; m++) {
      assert.equal(st.heads[m], s.head[m]);
      assert.equal(st.rel[m], s.deprel[m]);
    }
  }
});

test("non-projective trees: projectivize lifts arcs to ancestors, and the oracle gives that tree", () => {
  const rng = new Rng(11);
  let nonProjective = 0;
  for (let trial = 0; trial < 2000; trial++) {
    const n = 2 + rng.int(25);
    const gold = singleRooted(randomHeads(rng, n));
    const lifted = gold.slice();
    const lifts = projectivize(lifted, n);
    assert.ok(isTree(lifted, n) && rootChildren(lifted, n) === 1);
    assert.ok(noCrossingArcs(lifted, n), "projectivized tree has crossing arcs");
    if (noCrossingArcs(gold, n)) assert.equal(lifts, 0);
    else {
      nonProjective++;
      assert.ok(lifts > 0);
    }
    for (let m = 1; m <= n; m++) {
      // The new head is the gold head or one of its ancestors.
      let a = gold[m]!;
      while (a !== lifted[m] && a > 0) a = gold[a]!;
      assert.equal(a, lifted[m], `token ${m}: lifted head is no ancestor of the gold head`);
    }
    const label = new Int32Array(n + 1);
    const { st } = oracleDerivation(lifted, label, n, 1);
    for (let m = 1; m <= n; m++) assert.equal(st.heads[m], lifted[m]);
  }
  assert.ok(nonProjective > 500, `only ${nonProjective} non-projective trees drawn`);
});

test("greedy decoding with any weights gives a single-rooted projective tree over all tokens", () => {
  const rng = new Rng(3);
  const vocab = new Vocabularies();
  const words = ["a", "b", "c", "d", "e", "f", "g"];
  const tags = ["X", "Y", "Z"];
  for (let p = 0; p < 6; p++) {
    const L = 1 + rng.int(5);
    const bits = 10;
    const w = new Int16Array((1 << bits) * classCount(L));
    // Alternately wide and narrow weights, and all-equal (ties) ones.
    const spread = p % 3 === 0 ? 0 : p % 3 === 1 ? 30000 : 5;
    for (let i = 0; i < w.length; i++) w[i] = spread === 0 ? 0 : rng.int(2 * spread + 1) - spread;
    const labels = Array.from({ length: L }, (_, l) => `l${l}`);
    const parser = new TransitionParser({ bits }, { weights: w, scale: 1 }, labels);
    for (let k = 0; k < 150; k++) {
      const n = 1 + rng.int(40);
      const s = sentence(
        Array.from({ length: n }, () => words[rng.int(words.length)]!),
        Array.from({ length: n }, () => tags[rng.int(tags.length)]!),
        vocab,
      );
      const r = parser.parse(s, vocab);
      assert.equal(r.heads.length, n + 1);
      assert.ok(isTree(r.heads, n), "not a tree");
      assert.equal(rootChildren(r.heads, n), 1);
      assert.ok(noCrossingArcs(r.heads, n));
      for (let m = 1; m <= n; m++) assert.ok(r.labels[m]! >= 0 && r.labels[m]! < L);
    }
  }
});

function sentence(forms: string[], upos: string[], vocab: Vocabularies): Sentence {
  const n = forms.length;
  const s: Sentence = {
    n,
    form: new Int32Array(n + 1),
    lemma: new Int32Array(n + 1),
    upos: new Int32Array(n + 1),
    xpos: new Int32Array(n + 1),
    head: new Int32Array(n + 1).fill(-1),
    deprel: new Int32Array(n + 1),
    source: undefined,
  };
  for (let i = 1; i <= n; i++) {
    s.form[i] = vocab.form.add(forms[i - 1]!);
    s.upos[i] = vocab.upos.add(upos[i - 1]!);
    s.xpos[i] = vocab.xpos.add(upos[i - 1]!);
  }
  return s;
}
