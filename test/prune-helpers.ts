import assert from "node:assert/strict";
import type { Sentence } from "../src/corpus/sentence.js";
import type { Vocabularies } from "../src/corpus/vocab.js";
import { ArcMask } from "../src/mask/arc-mask.js";
import type { ModelData } from "../src/model/model-file.js";
import { PruningCascade } from "../src/prune/cascade.js";
import type { ArcPruner, PruneInput } from "../src/prune/pruner.js";
import { Rng } from "../src/util/rng.js";

/** A test pass that removes nothing (its cascade must leave parsing unchanged). */
export class KeepAllPass implements ArcPruner {
  readonly kind = "keep-all";
  calls = 0;
  prune(_input: PruneInput, _mask: ArcMask): void {
    this.calls++;
  }
  toModelData(): ModelData {
    return { kind: this.kind, meta: {}, arrays: {} };
  }
  describe(): string {
    return "keeps every arc\n";
  }
}

/** A test pass that removes each allowed arc with probability p (deterministic per seed and call order). */
export class RandomDropPass implements ArcPruner {
  readonly kind = "random-drop";
  private readonly rng: Rng;
  constructor(
    seed: number,
    private readonly p: number,
  ) {
    this.rng = new Rng(seed);
  }
  prune(_input: PruneInput, mask: ArcMask): void {
    const b = mask.bits;
    for (let i = 0; i < b.length; i++) if (b[i] === 1 && this.rng.next() < this.p) b[i] = 0;
  }
  toModelData(): ModelData {
    return { kind: this.kind, meta: {}, arrays: {} };
  }
  describe(): string {
    return `drops arcs with probability ${this.p}\n`;
  }
}

/**
 * Checks that `pass` only removes arcs: on full masks and on random sub-masks of each sentence, its
 * output is a subset of its input (never restoring an arc an earlier pass removed). Returns the share of
 * arcs it removed from full masks, so callers can also check that it does something.
 */
export function checkOnlyRemoves(
  pass: ArcPruner,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
  seed = 1,
): number {
  const runner = new PruningCascade([pass]);
  const rng = new Rng(seed);
  let before = 0;
  let after = 0;
  for (const s of sentences) {
    for (const drop of [0, 0.3, 0.8]) {
      const mask = ArcMask.full(s.n);
      for (let i = 0; i < mask.bits.length; i++)
        if (mask.bits[i] === 1 && rng.next() < drop) mask.bits[i] = 0;
      const input = mask.clone();
      runner.prune(s, vocab, mask);
      for (let i = 0; i < mask.bits.length; i++)
        assert.ok(mask.bits[i]! <= input.bits[i]!, `${pass.kind} restored an arc (cell ${i}, n = ${s.n})`);
      if (drop === 0) {
        before += input.count();
        after += mask.count();
      }
    }
  }
  return before === 0 ? 0 : 1 - after / before;
}

/** Checks that two passes (e.g. a filter and its round-tripped copy) keep the same arcs of every sentence. */
export function assertSamePruning(
  a: ArcPruner,
  b: ArcPruner,
  sentences: readonly Sentence[],
  vocab: Vocabularies,
): void {
  const runner = new PruningCascade();
  for (const s of sentences) {
    const x = ArcMask.full(s.n);
    const y = ArcMask.full(s.n);
    a.prune(runner.prepare(s, vocab), x);
    b.prune(runner.prepare(s, vocab), y);
    assert.deepEqual(x.bits, y.bits);
  }
}
