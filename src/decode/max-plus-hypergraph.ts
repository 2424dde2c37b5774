const NEG = Number.NEGATIVE_INFINITY;

/** Item id returned for an item without any derivation (it is not stored). */
export const DEAD_ITEM = -1;
/** Item id of the unit item: inside score 0, no derivation needed (empty spans, the empty prefix). */
export const UNIT_ITEM = 0;

/**
 * A max-plus (Viterbi) hypergraph that a dynamic program builds item by item in topological order,
 * scoring each item as it is built, so that only items with a derivation and hyperedges whose tails
 * all have one are stored ("cost grows with what survives"). Every hyperedge has two tails (the unit
 * item stands in for a missing one) and one part (the zero part, score 0, stands in for none); its
 * weight is the score of its part. On top of the built graph: the outside pass, the max-marginal of
 * every part (best derivation using a hyperedge that carries it), the best derivation's parts, and
 * witness counts (for every part, how many parts' max-marginal witnesses contain it).
 *
 * Usage per sentence: `reset(parts)`, write part scores into `score[0..parts)` (-Infinity = unusable),
 * then for each item `begin(maxEdges)`, `edge(...)`…, `end()` (returns the item id or DEAD_ITEM). All buffers
 * grow to the largest sentence seen and are reused; one instance must not be shared between callers.
 */
export class MaxPlusHypergraph {
  /** Number of real parts; part id `parts` is the zero part. */
  parts = 0;
  /** Score of each part (filled by the caller after `reset`); the zero part scores 0. */
  score = new Float64Array(1);
  /** Max-marginal of each part after `maxMarginals()`; -Infinity when no derivation uses it. */
  marginal = new Float64Array(1);
  /** Witness counts of each part after `witnessCounts()`. */
  count = new Int32Array(1);
  /** Hyperedge achieving each part's max-marginal. */
  private witnessEdge = new Int32Array(1);

  /** Number of stored items, the unit item included. */
  items = 0;
  /** Best (Viterbi) inside score of each item. */
  inside = new Float64Array(16);
  /** Best outside score of each item after `outside(goal)`. */
  outsideScore = new Float64Array(16);
  private bp = new Int32Array(16);
  private obp = new Int32Array(16);
  private first = new Int32Array(17);
  private inReq = new Int32Array(16);
  private outReq = new Int32Array(16);

  /** Number of stored hyperedges. */
  edges = 0;
  private tail1 = new Int32Array(64);
  private tail2 = new Int32Array(64);
  private part = new Int32Array(64);
  private head = new Int32Array(64);

  private curBest = NEG;
  private curArg = -1;

  /** Starts a new sentence with `parts` real parts; the caller then fills `score[0..parts)`. */
  reset(parts: number): void {
    if (this.score.length < parts + 1) {
      const cap = Math.max(parts + 1, Math.ceil(this.score.length * 1.5));
      this.score = new Float64Array(cap);
      this.marginal = new Float64Array(cap);
      this.count = new Int32Array(cap);
      this.witnessEdge = new Int32Array(cap);
    }
    this.parts = parts;
    this.score[parts] = 0;
    this.items = 1;
    this.inside[UNIT_ITEM] = 0;
    this.bp[UNIT_ITEM] = -1;
    this.first[0] = 0;
    this.first[1] = 0;
    this.edges = 0;
  }

  /** Starts the next item, which will have at most `maxEdges` hyperedges (`edge` calls), then `end`. */
  begin(maxEdges: number): void {
    if (this.items + 2 > this.inside.length) this.growItems();
    if (this.edges + maxEdges > this.tail1.length) this.growEdges(this.edges + maxEdges);
    this.curBest = NEG;
    this.curArg = -1;
  }

  /**
   * Adds hyperedge item ← a + b + part p to the item being built; ignored when a tail is DEAD_ITEM
   * or the total is -Infinity. Pass UNIT_ITEM for a missing tail and `parts` (the zero part) for none.
   */
  edge(a: number, b: number, p: number): void {
    if ((a | b) < 0) return;
    const v = this.inside[a]! + this.inside[b]! + this.score[p]!;
    if (!(v > NEG)) return;
    const e = this.edges;
    this.tail1[e] = a;
    this.tail2[e] = b;
    this.part[e] = p;
    this.head[e] = this.items;
    this.edges = e + 1;
    if (v > this.curBest) {
      this.curBest = v;
      this.curArg = e;
    }
  }

  /** Finishes the item being built: its id, or DEAD_ITEM (nothing stored) when it has no derivation. */
  end(): number {
    const x = this.items;
    if (this.curArg < 0) {
      this.edges = this.first[x]!;
      return DEAD_ITEM;
    }
    this.inside[x] = this.curBest;
    this.bp[x] = this.curArg;
    this.items = x + 1;
    this.first[x + 1] = this.edges;
    return x;
  }

  /** Max-plus outside pass from `goal` (outside score 0), recording each item's best context. */
  outside(goal: number): void {
    const items = this.items;
    const out = this.outsideScore;
    out.fill(NEG, 0, items);
    out[goal] = 0;
    const inside = this.inside;
    const score = this.score;
    const first = this.first;
    const tail1 = this.tail1;
    const tail2 = this.tail2;
    const part = this.part;
    const obp = this.obp;
    for (let x = items - 1; x > UNIT_ITEM; x--) {
      const o = out[x]!;
      if (!(o > NEG)) continue;
      const end = first[x + 1]!;
      for (let e = first[x]!; e < end; e++) {
        const a = tail1[e]!;
        const b = tail2[e]!;
        const base = o + score[part[e]!]!;
        const va = base + inside[b]!;
        if (va > out[a]!) {
          out[a] = va;
          obp[a] = e;
        }
        const vb = base + inside[a]!;
        if (vb > out[b]!) {
          out[b] = vb;
          obp[b] = e;
        }
      }
    }
  }

  /** Max-marginal of every part (after `outside`): best outside(head) + inside(tails) + score. */
  maxMarginals(): void {
    const parts = this.parts;
    const mm = this.marginal;
    const we = this.witnessEdge;
    mm.fill(NEG, 0, parts + 1);
    const out = this.outsideScore;
    const inside = this.inside;
    const score = this.score;
    const first = this.first;
    const tail1 = this.tail1;
    const tail2 = this.tail2;
    const part = this.part;
    for (let x = this.items - 1; x > UNIT_ITEM; x--) {
      const o = out[x]!;
      if (!(o > NEG)) continue;
      const end = first[x + 1]!;
      for (let e = first[x]!; e < end; e++) {
        const p = part[e]!;
        const v = o + inside[tail1[e]!]! + inside[tail2[e]!]! + score[p]!;
        if (v > mm[p]!) {
          mm[p] = v;
          we[p] = e;
        }
      }
    }
    mm[parts] = NEG;
  }

  /**
   * Witness counts (after `maxMarginals`): for every part a with a finite max-marginal, its witness is
   * the best derivation through the hyperedge achieving it (best inside derivations of the tails, best
   * outside context of the head); `count[p]` = number of such witnesses containing part p. Requests
   * travel up the outside back-pointers (items in increasing order) and then down the inside
   * back-pointers (decreasing order), each item visited once: linear in the size of the graph. With
   * `weight`, part p's witness is counted weight[p] times (callers whose parts stand for several
   * structures that share one witness in the graph).
   */
  witnessCounts(goal: number, weight: Int32Array | null = null): void {
    const parts = this.parts;
    const items = this.items;
    const count = this.count;
    const inReq = this.inReq;
    const outReq = this.outReq;
    count.fill(0, 0, parts + 1);
    inReq.fill(0, 0, items);
    outReq.fill(0, 0, items);
    const mm = this.marginal;
    const we = this.witnessEdge;
    const tail1 = this.tail1;
    const tail2 = this.tail2;
    const part = this.part;
    const head = this.head;
    for (let p = 0; p < parts; p++) {
      if (!(mm[p]! > NEG)) continue;
      const e = we[p]!;
      const w = weight === null ? 1 : weight[p]!;
      count[p]! += w;
      outReq[head[e]!]! += w;
      inReq[tail1[e]!]! += w;
      inReq[tail2[e]!]! += w;
    }
    const obp = this.obp;
    for (let x = UNIT_ITEM + 1; x < items; x++) {
      const k = outReq[x]!;
      if (k === 0 || x === goal) continue;
      const e = obp[x]!;
      outReq[head[e]!]! += k;
      count[part[e]!]! += k;
      const a = tail1[e]!;
      inReq[a === x ? tail2[e]! : a]! += k;
    }
    const bp = this.bp;
    for (let x = items - 1; x > UNIT_ITEM; x--) {
      const k = inReq[x]!;
      if (k === 0) continue;
      const e = bp[x]!;
      count[part[e]!]! += k;
      inReq[tail1[e]!]! += k;
      inReq[tail2[e]!]! += k;
    }
    count[parts] = 0;
  }

  /**
   * Writes the real parts of the best derivation of `goal` into `out` (any order) and returns their
   * number; `out` must hold them all.
   */
  bestParts(goal: number, out: Int32Array): number {
    const stack = this.inReq;
    const bp = this.bp;
    const part = this.part;
    const tail1 = this.tail1;
    const tail2 = this.tail2;
    let k = 0;
    let sp = 0;
    stack[sp++] = goal;
    while (sp > 0) {
      const x = stack[--sp]!;
      if (x === UNIT_ITEM) continue;
      const e = bp[x]!;
      const p = part[e]!;
      if (p !== this.parts) out[k++] = p;
      stack[sp++] = tail1[e]!;
      stack[sp++] = tail2[e]!;
    }
    return k;
  }

  private growItems(): void {
    const cap = Math.ceil(this.inside.length * 1.5) + 16;
    this.inside = growF(this.inside, cap);
    this.outsideScore = new Float64Array(cap);
    this.bp = growI(this.bp, cap);
    this.obp = new Int32Array(cap);
    this.first = growI(this.first, cap + 1);
    this.inReq = new Int32Array(cap + 1);
    this.outReq = new Int32Array(cap);
  }

  private growEdges(need: number): void {
    const cap = Math.max(need, Math.ceil(this.tail1.length * 1.5) + 64);
    this.tail1 = growI(this.tail1, cap);
    this.tail2 = growI(this.tail2, cap);
    this.part = growI(this.part, cap);
    this.head = growI(this.head, cap);
  }
}

function growF(a: Float64Array, cap: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}

function growI(a: Int32Array, cap: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}
