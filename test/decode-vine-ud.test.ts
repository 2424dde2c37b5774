import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { loadCorpus } from "../src/corpus/load.js";
import { isProjective, isTree, rootChildren } from "../src/decode/tree-predicates.js";
import { isVineStructure, toVineStructure, VINE_LEFT, VINE_RIGHT } from "../src/decode/vine-structure.js";
import { sharedUd } from "./helpers.js";

test("gold trees of en_ewt dev in the vine representation, by band", { skip: sharedUd() === null }, () => {
  const { sentences } = loadCorpus(join(sharedUd()!, "en_ewt", "dev.conllu"));
  const trees = sentences.filter((s) => isTree(s.head, s.n) && rootChildren(s.head, s.n) === 1);
  let projective = 0;
  for (const s of trees) if (isProjective(s.head, s.n)) projective++;
  const rows = [
    `${trees.length} single-rooted dev trees, ${((100 * projective) / trees.length).toFixed(2)}% projective`,
    "band  trees in the vine set  tokens with outer arcs",
  ];
  let tokens = 0;
  for (const s of trees) tokens += s.n;
  for (const b of [1, 2, 3, 4, 5, 6, 8, 10, 20]) {
    let inSet = 0;
    let outer = 0;
    for (const s of trees) {
      const vh = toVineStructure(s.head, s.n, b);
      for (let m = 1; m <= s.n; m++) if (vh[m] === VINE_LEFT || vh[m] === VINE_RIGHT) outer++;
      const ok = isVineStructure(vh, s.n, b, true);
      if (ok) inSet++;
      // Every projective tree maps into the set.
      if (isProjective(s.head, s.n)) assert.ok(ok);
    }
    rows.push(
      `${String(b).padEnd(5)} ${((100 * inSet) / trees.length).toFixed(2).padStart(20)}%  ${((100 * outer) / tokens).toFixed(2).padStart(21)}%`,
    );
  }
  console.log(rows.join("\n"));
});
