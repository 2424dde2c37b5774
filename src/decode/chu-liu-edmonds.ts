import type { ArcMask } from "../mask/arc-mask.js";
import { fallbackScores, usableTreeScore } from "./fallback-scores.js";
import type { DecodeResult, FirstOrderDecoder, FirstOrderOptions } from "./types.js";

const NEG = Number.NEGATIVE_INFINITY;
const UNSEEN = 0;
const ON_PATH = 1;
const DONE = 2;

/**
 * Chu-Liu/Edmonds maximum spanning arborescence (non-projective first-order decoder), O(n²) per
 * sentence in the dense form of Tarjan (1977): a path of best incoming arcs is grown from each
 * unattached node, and every cycle it closes is contracted into a new node whose incoming and outgoing
 * weights are merged in O(n) per member. The single-root constraint is exact: root arcs are penalised
 * by more than any difference between tree scores (Gabow & Tarjan 1984), so the best tree has as few
 * root children as possible, and one whenever the mask admits such a tree. Keeps its tables between
 * sentences, so one instance should not be shared between concurrent callers.
 */
export class ChuLiuEdmondsDecoder implements FirstOrderDecoder {
  /** Always "mst". */
  readonly name = "mst" as const;
  /** Whether the root takes exactly one child. */
  readonly singleRoot: boolean;
  /** Number of supernodes the tables can hold. */
  private cap = 0;
  /** w[v * stride + u]: best adjusted weight of an arc from (inside) supernode u into (inside) v. */
  private w = new Float64Array(0);
  /** Original arc index h * (n + 1) + m behind each entry of `w`. */
  private arc = new Int32Array(0);
  /** Adjusted weight of the arc each supernode chose. */
  private inW = new Float64Array(0);
  /** Original arc each supernode chose. */
  private inArc = new Int32Array(0);
  /** Supernode a node was contracted into, -1 while it is active. */
  private parent = new Int32Array(0);
  private state = new Uint8Array(0);
  private active = new Int32Array(0);
  private activePos = new Int32Array(0);
  private path = new Int32Array(0);
  private memberStart = new Int32Array(0);
  private memberCount = new Int32Array(0);
  private members = new Int32Array(0);
  private stack = new Int32Array(0);
  private fallback = new Float64Array(0);

  constructor(options: FirstOrderOptions = {}) {
    this.singleRoot = options.singleRoot ?? true;
  }

  /** The maximum spanning arborescence of n tokens using only usable arcs, or a fallback tree when there is none. */
  decode(n: number, scores: Float64Array, mask: ArcMask | null): DecodeResult {
    const heads = new Int32Array(n + 1);
    heads[0] = -1;
    if (n === 0) return { heads, score: 0, fallback: false };
    const size = n + 1;
    if (scores.length < size * size)
      throw new Error(`MST: scores has ${scores.length} cells, need ${size * size}`);
    if (mask !== null && mask.n !== n) throw new Error(`MST: mask has ${mask.n} tokens, sentence ${n}`);
    let fallback = false;
    if (!this.solve(n, scores, mask, heads)) {
      fallback = true;
      if (this.fallback.length < size * size) this.fallback = new Float64Array(size * size);
      if (!this.solve(n, fallbackScores(n, scores, mask, this.fallback), null, heads)) {
        // Only reachable with NaN scores: return the right-branching chain.
        for (let m = 1; m <= n; m++) heads[m] = m - 1;
      }
    }
    return { heads, score: usableTreeScore(heads, n, scores, mask), fallback };
  }

  /** Makes room for `nodes` supernodes. */
  private ensure(nodes: number): void {
    if (nodes <= this.cap) return;
    const cap = Math.max(nodes, Math.ceil(this.cap * 1.5));
    this.cap = cap;
    this.w = new Float64Array(cap * cap);
    this.arc = new Int32Array(cap * cap);
    this.inW = new Float64Array(cap);
    this.inArc = new Int32Array(cap);
    this.parent = new Int32Array(cap);
    this.state = new Uint8Array(cap);
    this.active = new Int32Array(cap);
    this.activePos = new Int32Array(cap);
    this.path = new Int32Array(cap);
    this.memberStart = new Int32Array(cap);
    this.memberCount = new Int32Array(cap);
    this.members = new Int32Array(cap);
    this.stack = new Int32Array(2 * cap);
  }

  /** Writes the best arborescence into heads; false when there is none (or none with one root child). */
  private solve(n: number, scores: Float64Array, mask: ArcMask | null, heads: Int32Array): boolean {
    const size = n + 1;
    // n + 1 original nodes and at most n - 1 contractions.
    const S = 2 * n + 1;
    this.ensure(S);
    const w = this.w;
    const arc = this.arc;
    const bits = mask === null ? null : mask.bits;
    let bound = 0;
    for (let m = 1; m <= n; m++) {
      const row = m * S;
      let big = 0;
      for (let h = 0; h <= n; h++) {
        const a = h * size + m;
        let v = NEG;
        if (h !== m && (bits === null || bits[a] === 1)) {
          v = scores[a]!;
          if (v !== NEG) {
            const abs = v < 0 ? -v : v;
            if (abs > big) big = abs;
          }
        }
        w[row + h] = v;
        arc[row + h] = a;
      }
      bound += big;
    }
    if (this.singleRoot) {
      const penalty = 1 + 2 * bound;
      for (let m = 1; m <= n; m++) w[m * S] -= penalty;
    }

    const inW = this.inW;
    const inArc = this.inArc;
    const parent = this.parent;
    const state = this.state;
    const active = this.active;
    const activePos = this.activePos;
    const path = this.path;
    const memberStart = this.memberStart;
    const memberCount = this.memberCount;
    const members = this.members;
    let activeCount = 0;
    for (let v = 0; v <= n; v++) {
      state[v] = v === 0 ? DONE : UNSEEN;
      parent[v] = -1;
      active[activeCount] = v;
      activePos[v] = activeCount++;
    }
    let next = n + 1;
    let memberTop = 0;

    for (let x = 1; x <= n; x++) {
      let cur = x;
      while (parent[cur] !== -1) cur = parent[cur]!;
      if (state[cur] !== UNSEEN) continue;
      let len = 0;
      path[len++] = cur;
      state[cur] = ON_PATH;
      for (;;) {
        // Best arc into cur from any other active supernode.
        const row = cur * S;
        let best = NEG;
        let bu = -1;
        for (let k = 0; k < activeCount; k++) {
          const u = active[k]!;
          if (u === cur) continue;
          const v = w[row + u]!;
          if (v > best) {
            best = v;
            bu = u;
          }
        }
        if (bu < 0) return false;
        inW[cur] = best;
        inArc[cur] = arc[row + bu]!;
        const st = state[bu];
        if (st === DONE) {
          for (let p = 0; p < len; p++) state[path[p]!] = DONE;
          break;
        }
        if (st === UNSEEN) {
          state[bu] = ON_PATH;
          path[len++] = bu;
          cur = bu;
          continue;
        }
        // bu is on the path: contract the cycle path[p..len-1] into a new supernode c.
        let p = len - 1;
        while (path[p] !== bu) p--;
        const c = next++;
        memberStart[c] = memberTop;
        memberCount[c] = len - p;
        for (let q = p; q < len; q++) {
          const v = path[q]!;
          members[memberTop++] = v;
          parent[v] = c;
          const pos = activePos[v]!;
          const last = active[--activeCount]!;
          active[pos] = last;
          activePos[last] = pos;
        }
        const rowc = c * S;
        for (let k = 0; k < activeCount; k++) {
          const u = active[k]!;
          // Into c: the best arc into a member v, less the cycle arc it replaces.
          let bIn = NEG;
          let aIn = -1;
          // Out of c into t (only for nodes that may still choose an arc).
          const t = u;
          const rowt = t * S;
          const wantOut = state[t] !== DONE;
          let bOut = NEG;
          let aOut = -1;
          for (let q = p; q < len; q++) {
            const v = path[q]!;
            const vi = v * S + u;
            const val = w[vi]! - inW[v]!;
            if (val > bIn) {
              bIn = val;
              aIn = arc[vi]!;
            }
            if (wantOut) {
              const o = w[rowt + v]!;
              if (o > bOut) {
                bOut = o;
                aOut = arc[rowt + v]!;
              }
            }
          }
          w[rowc + u] = bIn;
          arc[rowc + u] = aIn;
          if (wantOut) {
            w[rowt + c] = bOut;
            arc[rowt + c] = aOut;
          }
        }
        parent[c] = -1;
        state[c] = ON_PATH;
        active[activeCount] = c;
        activePos[c] = activeCount++;
        len = p;
        path[len++] = c;
        cur = c;
      }
    }

    // Expand: each top-level supernode keeps the arc it chose; inside a contracted node, the member
    // that arc enters takes it and every other member keeps its cycle arc.
    const stack = this.stack;
    let sp = 0;
    for (let k = 0; k < activeCount; k++) {
      const t = active[k]!;
      if (t === 0) continue;
      stack[sp++] = t;
      stack[sp++] = inArc[t]!;
    }
    let roots = 0;
    while (sp > 0) {
      const a = stack[--sp]!;
      const c = stack[--sp]!;
      if (c <= n) {
        const h = (a / size) | 0;
        heads[c] = h;
        if (h === 0) roots++;
        continue;
      }
      let x = a % size;
      while (parent[x] !== c) x = parent[x]!;
      const start = memberStart[c]!;
      const end = start + memberCount[c]!;
      for (let q = start; q < end; q++) {
        const v = members[q]!;
        stack[sp++] = v;
        stack[sp++] = v === x ? a : inArc[v]!;
      }
    }
    return !this.singleRoot || roots === 1;
  }
}
