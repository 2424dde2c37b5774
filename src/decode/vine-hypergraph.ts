import { DEAD_ITEM, type MaxPlusHypergraph, UNIT_ITEM } from "./max-plus-hypergraph.js";

const NEG = Number.NEGATIVE_INFINITY;

/**
 * The vine parser's dynamic program (see `VineParser`) built as a max-plus hypergraph, for witness
 * counts: the same items as `VineChart` (spans of width ≤ b, fragment chains in their states), each
 * hyperedge stored. Part scores must already be in the hypergraph (part-id layout of `VineParser`).
 */
export class VineHypergraph {
  private tab = new Int32Array(0);
  private readonly lay: VineLayout = { n: 0, z: 0, r0: 0, o0: 0, bb: 0, cl: 0, ir: 0, il: 0, qf: 0 };

  constructor(
    readonly hg: MaxPlusHypergraph,
    readonly band: number,
    readonly singleRoot: boolean,
  ) {}

  /** Builds the chart items in topological order; returns the goal item (or DEAD_ITEM). */
  build(n: number, Z: number, r0: number, o0: number): number {
    const b = this.band;
    const size = n + 1;
    // Span tables, b entries per position: complete spans of width 0..b-1 (CR right, CL left) and
    // incomplete spans of width 1..b (IR arc i→i+w, IL arc j→j-w); then the vine chains, n + 1 each.
    const need = 4 * size * b + 9 * size;
    if (this.tab.length < need) this.tab = new Int32Array(Math.max(need, Math.ceil(this.tab.length * 1.5)));
    const t = this.tab;
    const L = this.lay;
    L.n = n;
    L.z = Z;
    L.r0 = r0;
    L.o0 = o0;
    L.bb = Math.min(b, n - 1);
    L.cl = size * b;
    L.ir = 2 * size * b;
    L.il = 3 * size * b;
    L.qf = 4 * size * b;
    for (let i = 1; i <= n; i++) {
      t[i * b] = UNIT_ITEM;
      t[L.cl + i * b] = UNIT_ITEM;
    }
    for (let w = 1; w <= L.bb; w++) this.fillWidth(w);
    for (let h = 1; h <= n; h++) this.fillPosition(h);
    return t[L.qf + 4 * size + n]!;
  }

  /** Split, incomplete and complete spans of width w (kept apart so that V8 inlines `edge`). */
  private fillWidth(w: number): void {
    const b = this.band;
    const W = 2 * b;
    const { n, z: Z, cl: CL, ir: IR, il: IL } = this.lay;
    const CR = 0;
    const hg = this.hg;
    const score = hg.score;
    const t = this.tab;
    const U = UNIT_ITEM;
    const D = DEAD_ITEM;
    for (let i = 1, j = 1 + w; j <= n; i++, j++) {
      const pR = j * W + (i - j + b);
      const pL = i * W + (j - i + b - 1);
      let ir = D;
      let il = D;
      const uR = score[pR]! > NEG;
      const uL = score[pL]! > NEG;
      if (uR || uL) {
        // Shared split of I(i→j) and I(j→i): C(i, r) + C(j, r + 1).
        hg.begin(w);
        for (let r = i, a = CR + i * b, c = CL + j * b + w - 1; r < j; r++, a++, c--)
          hg.edge(t[a]!, t[c]!, Z);
        const sp = hg.end();
        if (sp !== D) {
          if (uR) {
            hg.begin(1);
            hg.edge(sp, U, pR);
            ir = hg.end();
          }
          if (uL) {
            hg.begin(1);
            hg.edge(sp, U, pL);
            il = hg.end();
          }
        }
      }
      t[IR + i * b + w - 1] = ir;
      t[IL + j * b + w - 1] = il;
      if (w < b) {
        // C(i→j) = I(i→m) + C(m→j); C(j→i) = C(m→i) + I(j→m).
        hg.begin(w);
        for (let m = i + 1; m <= j; m++) hg.edge(t[IR + i * b + m - i - 1]!, t[CR + m * b + j - m]!, Z);
        t[CR + i * b + w] = hg.end();
        hg.begin(w);
        for (let m = i; m < j; m++) hg.edge(t[CL + m * b + m - i]!, t[IL + j * b + j - m - 1]!, Z);
        t[CL + j * b + w] = hg.end();
      }
    }
  }

  /** The vine chain items at token h. */
  private fillPosition(h: number): void {
    const b = this.band;
    const { n, z: Z, r0, o0, bb, il: IL, ir: IR, qf: QF } = this.lay;
    const size = n + 1;
    const Q0 = QF + size;
    const Q1 = Q0 + size;
    const PN0 = Q1 + size;
    const PN1 = PN0 + size;
    const PR0 = PN1 + size;
    const PR1 = PR0 + size;
    const V0 = PR1 + size;
    const V1 = V0 + size;
    const hg = this.hg;
    const t = this.tab;
    const U = UNIT_ITEM;
    const D = DEAD_ITEM;
    const lo = Math.max(1, h - bb);
    const ilRow = IL + h * b - 1;
    // QF: first fragment (starts at token 1), h's left half complete.
    hg.begin(bb + 1);
    if (h === 1) hg.edge(U, U, Z);
    for (let m = lo; m < h; m++) hg.edge(t[QF + m]!, t[ilRow + h - m]!, Z);
    t[QF + h] = hg.end();
    // Q0, Q1: a later fragment (starts after a complete prefix with 0 / ≥ 1 root arcs).
    if (h >= 2) {
      const lo2 = Math.max(2, lo);
      hg.begin(bb + 1);
      hg.edge(t[V0 + h - 1]!, U, Z);
      for (let m = lo2; m < h; m++) hg.edge(t[Q0 + m]!, t[ilRow + h - m]!, Z);
      t[Q0 + h] = hg.end();
      hg.begin(bb + 1);
      hg.edge(t[V1 + h - 1]!, U, Z);
      for (let m = lo2; m < h; m++) hg.edge(t[Q1 + m]!, t[ilRow + h - m]!, Z);
      t[Q1 + h] = hg.end();
    } else {
      t[Q0 + h] = D;
      t[Q1 + h] = D;
    }
    const left = o0 + 2 * h;
    const right = left + 1;
    const root = r0 + h;
    const qf = t[QF + h]!;
    const q0 = t[Q0 + h]!;
    const q1 = t[Q1 + h]!;
    const irCol = IR + h - 1;
    // P: the last fragment's right spine reaches h (PN: its head not attached by a right outer arc).
    hg.begin(bb + 1);
    hg.edge(q0, U, left);
    for (let x = lo; x < h; x++) hg.edge(t[PN0 + x]!, t[irCol + x * (b - 1)]!, Z);
    t[PN0 + h] = hg.end();
    hg.begin(bb + 4);
    hg.edge(q1, U, left);
    hg.edge(q0, U, root);
    hg.edge(qf, U, root);
    if (!this.singleRoot) hg.edge(q1, U, root);
    for (let x = lo; x < h; x++) hg.edge(t[PN1 + x]!, t[irCol + x * (b - 1)]!, Z);
    t[PN1 + h] = hg.end();
    hg.begin(bb + 2);
    hg.edge(q0, U, right);
    hg.edge(qf, U, right);
    for (let x = lo; x < h; x++) hg.edge(t[PR0 + x]!, t[irCol + x * (b - 1)]!, Z);
    t[PR0 + h] = hg.end();
    hg.begin(bb + 1);
    hg.edge(q1, U, right);
    for (let x = lo; x < h; x++) hg.edge(t[PR1 + x]!, t[irCol + x * (b - 1)]!, Z);
    t[PR1 + h] = hg.end();
    // V: complete prefix 1..h (its last fragment closed at h).
    if (h < n) {
      hg.begin(2);
      hg.edge(t[PN0 + h]!, U, Z);
      hg.edge(t[PR0 + h]!, U, Z);
      t[V0 + h] = hg.end();
      hg.begin(2);
      hg.edge(t[PN1 + h]!, U, Z);
      hg.edge(t[PR1 + h]!, U, Z);
      t[V1 + h] = hg.end();
    }
  }
}

/** Sentence-dependent offsets of the vine chart tables. */
interface VineLayout {
  n: number;
  z: number;
  r0: number;
  o0: number;
  bb: number;
  cl: number;
  ir: number;
  il: number;
  qf: number;
}
