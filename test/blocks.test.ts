import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { readyBlocks } from "../src/util/blocks.js";

/** Yields `bursts` of numbers, each burst at once, with a pause (waiting for "input") between bursts. */
async function* bursts(sizes: number[], failAfter = -1): AsyncGenerator<number> {
  let i = 0;
  for (const size of sizes) {
    for (let k = 0; k < size; k++) {
      if (i === failAfter) throw new Error(`bad item ${i}`);
      yield i++;
    }
    await sleep(5);
  }
}

async function collect<T>(it: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const b of it) out.push(b);
  return out;
}

test("readyBlocks: a block ends when full or when the next item waits for input", async () => {
  const blocks = await collect(readyBlocks(bursts([3, 7, 1]), 4));
  assert.deepEqual(blocks, [[0, 1, 2], [3, 4, 5, 6], [7, 8, 9], [10]]);
  // Waiting for input (a file): only the size cuts blocks.
  const waited = await collect(readyBlocks(bursts([3, 7, 1]), 4, true));
  assert.deepEqual(waited, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10],
  ]);
  assert.deepEqual(await collect(readyBlocks(bursts([]), 4)), []);
  await assert.rejects(readyBlocks(bursts([1]), 0).next(), RangeError);
});

test("readyBlocks: with a weight, a block also ends with the item that brings it to the bound", async () => {
  // Items weigh their own value: 0+1+2+3 = 6 reaches 5, 4+5 = 9 does, 6 does alone, 7 too.
  const weight = { weigh: (i: number) => i, max: 5 };
  const blocks = await collect(readyBlocks(bursts([8]), 100, true, weight));
  assert.deepEqual(blocks, [[0, 1, 2, 3], [4, 5], [6], [7]]);
  // The count still bounds a block whose items weigh little; waiting for input still cuts.
  assert.deepEqual(await collect(readyBlocks(bursts([6]), 2, true, { weigh: () => 0, max: 1 })), [
    [0, 1],
    [2, 3],
    [4, 5],
  ]);
  assert.deepEqual(await collect(readyBlocks(bursts([2, 2]), 100, false, { weigh: () => 1, max: 10 })), [
    [0, 1],
    [2, 3],
  ]);
  await assert.rejects(readyBlocks(bursts([1]), 4, true, { weigh: () => 1, max: 0 }).next(), RangeError);
});

test("readyBlocks: items before a source error come out first, then the error", async () => {
  const got: number[][] = [];
  await assert.rejects(async () => {
    for await (const b of readyBlocks(bursts([2, 5], 4), 10)) got.push(b);
  }, /bad item 4/);
  assert.deepEqual(got, [
    [0, 1],
    [2, 3],
  ]);
});

test("readyBlocks: stopping early closes the source", async () => {
  let closed = false;
  async function* source(): AsyncGenerator<number> {
    try {
      for (let i = 0; ; i++) yield i;
    } finally {
      closed = true;
    }
  }
  for await (const b of readyBlocks(source(), 3)) {
    assert.deepEqual(b, [0, 1, 2]);
    break;
  }
  assert.ok(closed);
});
