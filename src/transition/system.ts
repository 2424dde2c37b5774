/**
 * The arc-standard transition system (Nivre 2004; Nivre 2008, section 4.1), labelled, with the
 * artificial root at the bottom of the stack.
 *
 * Why arc-standard rather than arc-eager: its static oracle is a three-line rule that needs no
 * look-ahead over the buffer, every terminal configuration is a complete tree (arc-eager can end
 * with tokens left unattached on the stack, to be patched up afterwards), and the single-root
 * constraint the project's other parsers keep (the root takes exactly one child, as `singleRoot` in
 * src/decode/eisner.ts) is one legality rule: the arc from the root is allowed only as the very last
 * transition, when the buffer is empty and the stack holds the root and one token. So greedy decoding
 * under the legality rules below always ends in a single-rooted projective tree over all tokens, with
 * no end-of-buffer repair.
 *
 * Transitions (classes): 0 = SHIFT (q0 onto the stack); 1 + l = LEFT-ARC(l) (s1 ← s0: s1 becomes a
 * dependent of s0 with label l and is removed); 1 + L + l = RIGHT-ARC(l) (s1 → s0: s0 becomes a
 * dependent of s1 with label l and is popped). A sentence of n tokens takes exactly 2n transitions.
 *
 * Everything lives in typed arrays sized once per sentence length; applying a transition allocates
 * nothing.
 */

/** Class index of SHIFT. */
export const SHIFT = 0;

/** Number of transition classes for `labels` relation labels: SHIFT, L left arcs, L right arcs. */
export function classCount(labels: number): number {
  return 1 + 2 * labels;
}

/** A parser configuration: stack, buffer front, the arcs built so far and per-head child summaries. */
export class State {
  /** Number of tokens of the sentence. */
  n = 0;
  /** Number of relation labels (classes are 1 + 2L). */
  labels = 0;
  /** Stack, bottom at 0 (always the root, token 0); `sp` entries. */
  stack: Int32Array = new Int32Array(0);
  sp = 0;
  /** Front of the buffer: the next token to shift (n + 1 when the buffer is empty). */
  b = 1;
  /** heads[m] for m = 1..n (-1 while unattached; heads[0] = -1). */
  heads: Int32Array = new Int32Array(0);
  /** Label index of each attached token (-1 while unattached). */
  rel: Int32Array = new Int32Array(0);
  /** Leftmost and second-leftmost dependents of each token (-1 = none). */
  lc1: Int32Array = new Int32Array(0);
  lc2: Int32Array = new Int32Array(0);
  /** Rightmost and second-rightmost dependents of each token (-1 = none). */
  rc1: Int32Array = new Int32Array(0);
  rc2: Int32Array = new Int32Array(0);
  /** Number of left and right dependents of each token. */
  nl: Int32Array = new Int32Array(0);
  nr: Int32Array = new Int32Array(0);

  /** Resets to the initial configuration of a sentence of n tokens: stack [root], buffer 1..n. */
  init(n: number, labels: number): this {
    if (this.stack.length < n + 2) {
      const cap = Math.max(n + 2, this.stack.length * 2, 64);
      this.stack = new Int32Array(cap);
      this.heads = new Int32Array(cap);
      this.rel = new Int32Array(cap);
      this.lc1 = new Int32Array(cap);
      this.lc2 = new Int32Array(cap);
      this.rc1 = new Int32Array(cap);
      this.rc2 = new Int32Array(cap);
      this.nl = new Int32Array(cap);
      this.nr = new Int32Array(cap);
    }
    this.n = n;
    this.labels = labels;
    this.stack[0] = 0;
    this.sp = 1;
    this.b = 1;
    const end = n + 1;
    this.heads.fill(-1, 0, end);
    this.rel.fill(-1, 0, end);
    this.lc1.fill(-1, 0, end);
    this.lc2.fill(-1, 0, end);
    this.rc1.fill(-1, 0, end);
    this.rc2.fill(-1, 0, end);
    this.nl.fill(0, 0, end);
    this.nr.fill(0, 0, end);
    return this;
  }

  /** Whether the configuration is terminal (only the root on the stack, buffer empty). */
  get done(): boolean {
    return this.sp === 1 && this.b > this.n;
  }

  /** Whether SHIFT is legal. */
  canShift(): boolean {
    return this.b <= this.n;
  }

  /** Whether LEFT-ARC is legal (s1 exists and is not the root). */
  canLeft(): boolean {
    return this.sp >= 3;
  }

  /**
   * Whether RIGHT-ARC is legal: between two tokens, or from the root only as the last transition
   * (stack [root, s0], buffer empty), so that the root takes exactly one dependent.
   */
  canRight(): boolean {
    return this.sp >= 3 || (this.sp === 2 && this.b > this.n);
  }

  /** Whether transition class `c` is legal. */
  legal(c: number): boolean {
    if (c === SHIFT) return this.canShift();
    return c <= this.labels ? this.canLeft() : this.canRight();
  }

  /** Applies transition class `c` (which must be legal). */
  apply(c: number): void {
    const L = this.labels;
    if (c === SHIFT) {
      this.stack[this.sp++] = this.b++;
      return;
    }
    const s0 = this.stack[this.sp - 1]!;
    const s1 = this.stack[this.sp - 2]!;
    if (c <= L) {
      // LEFT-ARC: s1 ← s0; s1 is left of every earlier left dependent of s0.
      this.heads[s1] = s0;
      this.rel[s1] = c - 1;
      this.lc2[s0] = this.lc1[s0]!;
      this.lc1[s0] = s1;
      this.nl[s0]++;
      this.stack[this.sp - 2] = s0;
      this.sp--;
    } else {
      // RIGHT-ARC: s1 → s0; s0 is right of every earlier right dependent of s1.
      this.heads[s0] = s1;
      this.rel[s0] = c - 1 - L;
      this.rc2[s1] = this.rc1[s1]!;
      this.rc1[s1] = s0;
      this.nr[s1]++;
      this.sp--;
    }
  }
}

/**
 * The static oracle of arc-standard (Nivre 2008): LEFT-ARC when s1's gold head is s0; RIGHT-ARC when
 * s0's gold head is s1 and s0 has all its gold dependents; else SHIFT. `goldHead`/`goldLabel` are the
 * (projective, single-rooted) target tree; `pending[h]` must hold, on entry to each call, the number of
 * gold dependents of h not yet attached (see `countDependents`; `apply` of the returned class does not
 * update it: call `oracleApplied`). On a tree the system cannot build (non-projective, or several root
 * dependents) it still returns a legal transition, so that a derivation always ends.
 */
export function oracle(st: State, goldHead: Int32Array, goldLabel: Int32Array, pending: Int32Array): number {
  const sp = st.sp;
  const L = st.labels;
  if (sp >= 2) {
    const s0 = st.stack[sp - 1]!;
    const s1 = st.stack[sp - 2]!;
    if (sp >= 3 && goldHead[s1] === s0) return 1 + goldLabel[s1]!;
    if (goldHead[s0] === s1 && pending[s0] === 0 && st.canRight()) return 1 + L + goldLabel[s0]!;
  }
  if (st.canShift()) return SHIFT;
  // Only reachable on trees the system cannot build: attach s0 to s1 (the tree stays well formed).
  const s0 = st.stack[sp - 1]!;
  return 1 + L + Math.max(0, goldLabel[s0]!);
}

/** Counts each token's dependents in `head` (heads[m] for m = 1..n) into `out` (length ≥ n + 1). */
export function countDependents(head: Int32Array, n: number, out: Int32Array): void {
  out.fill(0, 0, n + 1);
  for (let m = 1; m <= n; m++) {
    const h = head[m]!;
    if (h >= 0) out[h]++;
  }
}

/** Updates `pending` (see `oracle`) after transition `c` was applied to the state before it. */
export function oracleApplied(st: State, c: number, pending: Int32Array): void {
  // LEFT-ARC leaves the new head on top of the stack; RIGHT-ARC pops its dependent, leaving the head.
  if (c !== SHIFT) pending[st.stack[st.sp - 1]!]--;
}

/** Whether the arc h → d of tree `head` is projective: h dominates every token strictly between them. */
export function arcIsProjective(head: Int32Array, h: number, d: number): boolean {
  const lo = Math.min(h, d);
  const hi = Math.max(h, d);
  for (let k = lo + 1; k < hi; k++) {
    let a = k;
    while (a !== h && a > 0) a = head[a]!;
    if (a !== h) return false;
  }
  return true;
}

/** Whether every arc of the tree (heads[m] for m = 1..n, root at position 0) is projective. */
export function isProjective(head: Int32Array, n: number): boolean {
  for (let d = 1; d <= n; d++) if (!arcIsProjective(head, head[d]!, d)) return false;
  return true;
}

/**
 * A projective version of a tree (Nivre & Nilsson 2005's lifting, without their label encoding):
 * while some arc is non-projective, the shortest such arc h → d is lifted to h's head (d's head
 * becomes head[h]). Each lift brings d one level nearer the root, so the process ends, with a
 * projective tree (at worst every token a dependent of the root's one dependent). Lifting never creates a new root
 * dependent: an arc from the root's only dependent spans tokens it all dominates, so it is always
 * projective. Labels are kept unchanged. Returns the number of lifts; `head` is modified in place.
 */
export function projectivize(head: Int32Array, n: number): number {
  let lifts = 0;
  for (;;) {
    let best = -1;
    let bestLen = Number.POSITIVE_INFINITY;
    for (let d = 1; d <= n; d++) {
      const h = head[d]!;
      if (h <= 0) continue;
      const len = Math.abs(h - d);
      if (len < bestLen && len > 1 && !arcIsProjective(head, h, d)) {
        best = d;
        bestLen = len;
      }
    }
    if (best < 0) return lifts;
    head[best] = head[head[best]!]!;
    lifts++;
  }
}
