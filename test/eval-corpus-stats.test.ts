import assert from "node:assert/strict";
import { test } from "node:test";
import { readConlluFile } from "../src/conllu/read.js";
import { corpusStats, countNonProjectiveArcs, fileStats, isProjective } from "../src/corpus/stats.js";
import { round } from "../src/eval/percent.js";
import { Rng } from "../src/util/rng.js";
import { fixture, randomHeads } from "./helpers.js";

/** Straightforward definition: h→m is non-projective if a word strictly between is not below h. */
function bruteForce(heads: ArrayLike<number>, n: number): number {
  const dominates = (h: number, k: number) => {
    for (let j = k; j !== -1; j = j === 0 ? -1 : heads[j]!) if (j === h) return true;
    return false;
  };
  let count = 0;
  for (let m = 1; m <= n; m++) {
    const h = heads[m]!;
    for (let k = Math.min(h, m) + 1; k < Math.max(h, m); k++) {
      if (!dominates(h, k)) {
        count++;
        break;
      }
    }
  }
  return count;
}

test("non-projective arcs: classic examples", () => {
  // "A hearing is scheduled on the issue today": 2→7 crosses 4→8's head word.
  assert.equal(countNonProjectiveArcs([-1, 2, 4, 4, 0, 7, 7, 2, 4, 4], 9), 1);
  assert.equal(isProjective([-1, 2, 0, 2], 3), true);
  // 1→3 with 2 attached to the root: 2 is not dominated by 1.
  assert.equal(countNonProjectiveArcs([-1, 0, 0, 1], 3), 1);
  // Root arcs are never non-projective.
  assert.equal(countNonProjectiveArcs([-1, 0, 0, 0], 3), 0);
  // Two crossing arcs, both non-projective: 1→3 and 2→4 (2 under root, 4 under 2).
  assert.equal(countNonProjectiveArcs([-1, 0, 0, 1, 2], 4), 2);
});

test("non-projective arcs agree with the brute-force definition on random trees", () => {
  const rng = new Rng(7);
  let nonProjective = 0;
  for (let t = 0; t < 2000; t++) {
    const n = 1 + rng.int(15);
    const heads = randomHeads(rng, n);
    const got = countNonProjectiveArcs(heads, n);
    assert.equal(got, bruteForce(heads, n), `heads ${Array.from(heads).join(" ")}`);
    if (got > 0) nonProjective++;
  }
  assert.ok(nonProjective > 100, "the random trees exercise non-projectivity");
});

test("fixture stats are hand-counted", async () => {
  const s = await fileStats(fixture("small.conllu"));
  assert.equal(s.sentences, 3);
  assert.equal(s.tokens, 21);
  assert.equal(s.meanLength, 7);
  assert.equal(s.maxLength, 9);
  assert.equal(s.nonProjectiveSentenceCount, 1);
  assert.equal(s.nonProjectiveArcCount, 1);
  assert.equal(round(s.nonProjectiveSentences), 33.33);
  assert.equal(round(s.nonProjectiveArcs), 4.76); // 1/21
  assert.equal(round(s.oracleReduction), 86.45); // 1 − 21/155
  assert.equal(s.multiwordTokens, 1);
  assert.equal(s.emptyNodes, 1);
  assert.deepEqual(corpusStats(readConlluFile(fixture("small.conllu"))), s);
});
