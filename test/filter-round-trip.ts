import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sentence } from "../src/corpus/sentence.js";
import type { Vocabularies } from "../src/corpus/vocab.js";
import { writeModelFile } from "../src/model/model-file.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { cascadeModelData, loadCascade } from "../src/prune/load-pruner.js";
import type { ArcPruner } from "../src/prune/pruner.js";

/**
 * Writes `pass` as a filter file (through `cascadeModelData`), loads it back with `loadCascade` and
 * checks that the loaded pass has the same kind and description and prunes every sentence to the same
 * mask. Returns the loaded pass.
 */
export function checkRoundTrip(
  pass: ArcPruner,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
): ArcPruner {
  const dir = mkdtempSync(join(tmpdir(), "vp-filter-"));
  try {
    const file = join(dir, `${pass.kind}.vpf`);
    writeModelFile(file, cascadeModelData(new PruningCascade([pass])));
    const loaded = loadCascade(file);
    assert.equal(loaded.passes.length, 1);
    const back = loaded.passes[0]!;
    assert.equal(back.kind, pass.kind);
    assert.equal(back.describe(), pass.describe());
    const a = new PruningCascade([pass]);
    for (const s of sentences) assert.deepEqual(loaded.prune(s, vocab).bits, a.prune(s, vocab).bits);
    return back;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
