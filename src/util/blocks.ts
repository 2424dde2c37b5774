import { setImmediate as nextTurn } from "node:timers/promises";

/** A bound on the items of a block by their total weight (e.g. a block of sentences by their words). */
export interface BlockWeight<T> {
  /** The weight of an item (≥ 0). */
  weigh: (item: T) => number;
  /** A block ends as soon as its items weigh this much together (its last item may take it over). */
  max: number;
}

/**
 * Groups the items of an asynchronous sequence into blocks of at most `max` (and, with `weight`, of
 * at most about `weight.max` in weight: the block ends with the item that reaches it). Unless `wait`
 * (for input that is all there, like a file), no item is held back to wait for more input: a block
 * also ends when the next item is not ready by the next turn of the event loop (it needs more input,
 * e.g. from a pipe), so that typing into stdin, each sentence comes out as soon as it is complete. An
 * error of the source is thrown after the items before it have been yielded.
 */
export async function* readyBlocks<T>(
  source: AsyncIterable<T>,
  max: number,
  wait = false,
  weight?: BlockWeight<T>,
): AsyncGenerator<T[]> {
  if (!(max >= 1)) throw new RangeError(`readyBlocks: block size ${max}`);
  if (weight !== undefined && !(weight.max > 0))
    throw new RangeError(`readyBlocks: block weight ${weight.max}`);
  const it = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | null = null;
  let done = false;
  try {
    while (!done) {
      const block: T[] = [];
      let weighs = 0;
      let failure: { error: unknown } | null = null;
      // The first item of a block is waited for; the others only until the event loop turns.
      let turn: Promise<true> | null = null;
      while (block.length < max) {
        const next: Promise<IteratorResult<T>> = pending ?? it.next();
        pending = next;
        let r: IteratorResult<T> | true;
        try {
          r = turn === null ? await next : await Promise.race([next, turn]);
        } catch (error) {
          pending = null;
          failure = { error };
          break;
        }
        if (r === true) break;
        pending = null;
        if (r.done === true) {
          done = true;
          break;
        }
        block.push(r.value);
        if (weight !== undefined && (weighs += weight.weigh(r.value)) >= weight.max) break;
        if (!wait) turn ??= nextTurn(true);
      }
      if (block.length > 0) yield block;
      if (failure !== null) throw failure.error;
    }
  } finally {
    if (!done) await it.return?.();
  }
}
