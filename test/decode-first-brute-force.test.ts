import assert from "node:assert/strict";
import { test } from "node:test";
import { bruteForceBest, enumerateTrees } from "../src/decode/brute-force.js";
import { isProjective, isTree, rootChildren, treeScore } from "../src/decode/tree-predicates.js";
import { ArcMask } from "../src/mask/arc-mask.js";

function count(n: number, singleRoot: boolean, projective: boolean, mask: ArcMask | null = null): number {
  let c = 0;
  for (const h of enumerateTrees(n, { singleRoot, projective, mask })) {
    assert.ok(isTree(h, n));
    c++;
  }
  return c;
}

test("enumerateTrees yields the known numbers of trees", () => {
  for (let n = 1; n <= 6; n++) {
    // Cayley: (n + 1)^(n - 1) trees rooted at 0; n^(n - 1) with a single root child.
    assert.equal(count(n, false, false), (n + 1) ** (n - 1));
    assert.equal(count(n, true, false), n ** (n - 1));
  }
  // Projective: A001764 (any number of root children), A006013 (one root child).
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((n) => count(n, false, true)),
    [1, 3, 12, 55, 273, 1428],
  );
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((n) => count(n, true, true)),
    [1, 2, 7, 30, 143, 728],
  );
  assert.deepEqual(
    [...enumerateTrees(0)].map((h) => [...h]),
    [[-1]],
  );
});

test("enumerateTrees yields distinct trees, respects masks, and copies each array", () => {
  const n = 5;
  const mask = ArcMask.full(n);
  mask.remove(0, 3);
  mask.remove(2, 1);
  mask.remove(4, 5);
  const seen = new Set<string>();
  for (const h of enumerateTrees(n, { mask })) {
    const key = h.join(",");
    assert.ok(!seen.has(key));
    seen.add(key);
    for (let m = 1; m <= n; m++) assert.ok(mask.allows(h[m]!, m));
  }
  // Brute-force check of the count by filtering all trees.
  let filtered = 0;
  for (const h of enumerateTrees(n)) {
    let ok = true;
    for (let m = 1; m <= n; m++) if (!mask.allows(h[m]!, m)) ok = false;
    if (ok) filtered++;
  }
  assert.equal(seen.size, filtered);
  assert.equal(bruteForceBest(n, new Float64Array(36), { mask: ArcMask.empty(n) }), null);
});

test("tree predicates", () => {
  assert.ok(isTree([-1, 0, 1, 2]));
  assert.ok(!isTree([-1, 2, 1, 0]));
  assert.ok(!isTree([-1, 1]));
  assert.ok(!isTree([-1, 4]));
  assert.ok(isProjective([-1, 2, 0, 2]));
  assert.ok(!isProjective([-1, 3, 0, 2, 1]));
  assert.ok(!isProjective([-1, 0, 4, 1, 1])); // 4→2 covers 3, whose head 1 is outside
  assert.ok(isProjective([-1, 2, 0, 0]));
  assert.ok(!isProjective([-1, 3, 0, 0])); // 3→1 crosses root→2
  assert.equal(rootChildren([-1, 0, 0, 2]), 2);
  assert.equal(treeScore([-1, 0, 1], [0, 1, 0, 0, 0, 2, 0, 0, 0]), 3);
});
