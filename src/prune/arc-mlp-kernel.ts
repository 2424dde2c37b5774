/**
 * The arc network's output loop for 16 hidden units as a WebAssembly SIMD kernel: for a list of arcs,
 * each given by the byte offsets of its head sums, modifier sums and length row (16 doubles each),
 * b2 + (Σ even units + Σ odd units) of w2h_j · (v_j + |v_j|) with v = (head + modifier) + length,
 * two units per f64x2 instruction. The JavaScript loop of `ArcMlp.scoreMasked` adds up in exactly this
 * order, so both give the same bits.
 */

import { hexBytes, lazyModule, LITTLE_ENDIAN } from "../util/wasm-module.js";

/** Hidden units the kernel handles. */
export const KERNEL_UNITS = 16;
/** Arcs per kernel call (the list and output areas hold this many). */
export const KERNEL_CHUNK = 4096;

/**
 * The module, assembled from this text (WebAssembly text format) and written out as bytes below:
 *
 *   (module (import "e" "m" (memory 1))
 *     ;; z: the outputs of `count` arcs listed at `list`, to `out`
 *     (func (export "z") (param $list i32) (param $count i32) (param $out i32) (param $w2 i32) (param $b2 f64)
 *       (local $end i32) (local $ho i32) (local $mo i32) (local $dr i32) (local $w i32) (local $q i32)
 *       (local $acc v128) (local $v v128)
 *       (local.set $end (i32.add (local.get $list) (i32.mul (local.get $count) (i32.const 12))))
 *       (block $done (loop $arcs
 *         (br_if $done (i32.ge_u (local.get $list) (local.get $end)))
 *         (local.set $ho (i32.load (local.get $list)))
 *         (local.set $mo (i32.load offset=4 (local.get $list)))
 *         (local.set $dr (i32.load offset=8 (local.get $list)))
 *         (local.set $acc (v128.const i64x2 0 0))
 *         (local.set $w (local.get $w2))
 *         (local.set $q (i32.const 8))
 *         (loop $units
 *           (local.set $v (f64x2.add (f64x2.add (v128.load (local.get $ho)) (v128.load (local.get $mo)))
 *                                    (v128.load (local.get $dr))))
 *           (local.set $acc (f64x2.add (local.get $acc)
 *             (f64x2.mul (v128.load (local.get $w)) (f64x2.add (local.get $v) (f64x2.abs (local.get $v))))))
 *           ho, mo, dr, w += 16; q -= 1
 *           (br_if $units (local.get $q)))
 *         (f64.store (local.get $out) (f64.add (local.get $b2)
 *           (f64.add (f64x2.extract_lane 0 (local.get $acc)) (f64x2.extract_lane 1 (local.get $acc)))))
 *         out += 8; list += 12
 *         (br $arcs))))
 *     ;; s: one token's sums, dst = (((((r0 + r1) + r2) + r3) + r4) + r5) + sign · sp (16 doubles each)
 *     (func (export "s") (param $dst i32) (param $r0 i32) (param $r1 i32) (param $r2 i32) (param $r3 i32)
 *       (param $r4 i32) (param $r5 i32) (param $sp i32) (param $sign f64)
 *       (local $q i32) (local $sg v128)
 *       (local.set $sg (f64x2.splat (local.get $sign)))
 *       (local.set $q (i32.const 8))
 *       (loop $u
 *         (v128.store (local.get $dst) (f64x2.add
 *           (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (v128.load (local.get $r0))
 *             (v128.load (local.get $r1))) (v128.load (local.get $r2))) (v128.load (local.get $r3)))
 *             (v128.load (local.get $r4))) (v128.load (local.get $r5)))
 *           (f64x2.mul (local.get $sg) (v128.load (local.get $sp)))))
 *         dst, r0 … r5, sp += 16; q -= 1
 *         (br_if $u (local.get $q)))))
 */
const KERNEL_HEX = [
  "00 61 73 6d 01 00 00 00", // "\0asm", version 1
  "01 15 02 60 05 7f 7f 7f 7f 7c 00 60 09 7f 7f 7f 7f 7f 7f 7f 7f 7c 00", // types: z's and s's
  "02 08 01 01 65 01 6d 02 00 01", // import e.m: memory, min 1 page
  "03 03 02 00 01", // two functions, of types 0 and 1
  "07 09 02 01 7a 00 00 01 73 00 01", // export them as "z" and "s"
  "0a f1 02 02", // code section: two bodies
  // z: 207 bytes
  "cf 01 02 06 7f 02 7b", // locals: 6 i32 (end, ho, mo, dr, w, q), 2 v128 (acc, v)
  "20 00 20 01 41 0c 6c 6a 21 05", // end = list + count · 12
  "02 40 03 40 20 00 20 05 4f 0d 01", // block, loop $arcs: if list >= end: break
  "20 00 28 02 00 21 06", // ho = i32.load list
  "20 00 28 02 04 21 07", // mo = i32.load list + 4
  "20 00 28 02 08 21 08", // dr = i32.load list + 8
  "fd 0c 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 21 0b", // acc = 0
  "20 03 21 09 41 08 21 0a", // w = w2; q = 8
  "03 40 20 06 fd 00 04 00 20 07 fd 00 04 00 fd f0 01", // loop $units: head + modifier
  "20 08 fd 00 04 00 fd f0 01 21 0c", // v = … + length
  "20 0b 20 09 fd 00 04 00 20 0c 20 0c fd ec 01 fd f0 01 fd f2 01 fd f0 01 21 0b", // acc += w · (v + |v|)
  "20 06 41 10 6a 21 06", // ho += 16
  "20 07 41 10 6a 21 07", // mo += 16
  "20 08 41 10 6a 21 08", // dr += 16
  "20 09 41 10 6a 21 09", // w += 16
  "20 0a 41 01 6b 21 0a", // q -= 1
  "20 0a 0d 00 0b", // continue while q; end loop $units
  "20 02 20 04 20 0b fd 21 00 20 0b fd 21 01 a0 a0 39 03 00", // f64.store out, b2 + (acc[0] + acc[1])
  "20 02 41 08 6a 21 02", // out += 8
  "20 00 41 0c 6a 21 00", // list += 12
  "0c 00 0b 0b 0b", // continue $arcs; end loop, end block, end
  // s: 157 bytes
  "9d 01 02 01 7f 01 7b", // locals: 1 i32 (q), 1 v128 (sg)
  "20 08 fd 14 21 0a", // sg = f64x2.splat sign
  "41 08 21 09", // q = 8
  "03 40 20 00", // loop $u: (dst for the store)
  "20 01 fd 00 04 00 20 02 fd 00 04 00 fd f0 01", // r0 + r1
  "20 03 fd 00 04 00 fd f0 01", // + r2
  "20 04 fd 00 04 00 fd f0 01", // + r3
  "20 05 fd 00 04 00 fd f0 01", // + r4
  "20 06 fd 00 04 00 fd f0 01", // + r5
  "20 0a 20 07 fd 00 04 00 fd f2 01 fd f0 01", // + sg · sp
  "fd 0b 04 00", // v128.store dst
  "20 00 41 10 6a 21 00", // dst += 16
  "20 01 41 10 6a 21 01", // r0 += 16
  "20 02 41 10 6a 21 02", // r1 += 16
  "20 03 41 10 6a 21 03", // r2 += 16
  "20 04 41 10 6a 21 04", // r3 += 16
  "20 05 41 10 6a 21 05", // r4 += 16
  "20 06 41 10 6a 21 06", // r5 += 16
  "20 07 41 10 6a 21 07", // sp += 16
  "20 09 41 01 6b 21 09", // q -= 1
  "20 09 0d 00 0b 0b", // continue while q; end loop, end
];

/** The compiled module, or null where WebAssembly or its SIMD instructions are missing. */
const kernelModule = lazyModule(hexBytes(KERNEL_HEX));

/** Whether this runtime runs the arc network's WebAssembly kernel. */
export function hasArcKernel(): boolean {
  return LITTLE_ENDIAN && kernelModule() !== null;
}

/**
 * One instance of the kernel with its memory, laid out for sentences of up to `cap` positions: the
 * halved output weights, the length rows, a copy of the embeddings as doubles (then b1 and a zero
 * row), the head and modifier sums and the span prefix sums (views the network fills), the arc list
 * and the outputs of one chunk. The embeddings are copied once: the network's weights must not change
 * while it uses the kernel.
 */
export class ArcKernel {
  readonly w2h: Float64Array;
  readonly dist: Float64Array;
  readonly headSum: Float64Array;
  readonly modSum: Float64Array;
  readonly span: Float64Array;
  /** Three byte offsets per arc: head sums, modifier sums, length row. */
  readonly list: Int32Array;
  readonly out: Float64Array;
  /** Byte offsets of the areas the list and `sum` refer to. */
  readonly distAt: number;
  readonly embAt: number;
  readonly headAt: number;
  readonly modAt: number;
  readonly spanAt: number;
  /** Rows of the embedding copy: b1 is row `rows`, zeros row `rows + 1`. */
  readonly rows: number;
  private readonly run: (list: number, count: number, out: number, w2: number, b2: number) => void;
  /** dst = (((((r0 + r1) + r2) + r3) + r4) + r5) + sign · sp, byte offsets of 16 doubles. */
  readonly sum: (
    dst: number,
    r0: number,
    r1: number,
    r2: number,
    r3: number,
    r4: number,
    r5: number,
    sp: number,
    sign: number,
  ) => void;
  private readonly listAt: number;
  private readonly outAt: number;

  constructor(cap: number, emb: Float32Array, b1: Float32Array) {
    const H = KERNEL_UNITS;
    const rows = emb.length / H;
    this.rows = rows;
    const sums = 2 * cap * H * 8;
    this.distAt = H * 8;
    this.embAt = this.distAt + 16 * H * 8;
    this.headAt = this.embAt + (rows + 2) * H * 8;
    this.modAt = this.headAt + sums;
    this.spanAt = this.modAt + sums;
    this.listAt = this.spanAt + cap * H * 8;
    this.outAt = this.listAt + KERNEL_CHUNK * 12;
    const bytes = this.outAt + KERNEL_CHUNK * 8;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const instance = new WebAssembly.Instance(kernelModule()!, { e: { m: memory } });
    this.run = instance.exports.z as (
      list: number,
      count: number,
      out: number,
      w2: number,
      b2: number,
    ) => void;
    this.sum = instance.exports.s as ArcKernel["sum"];
    const buffer = memory.buffer;
    this.w2h = new Float64Array(buffer, 0, H);
    this.dist = new Float64Array(buffer, this.distAt, 16 * H);
    const e = new Float64Array(buffer, this.embAt, (rows + 2) * H);
    e.set(emb);
    e.set(b1, rows * H);
    this.headSum = new Float64Array(buffer, this.headAt, 2 * cap * H);
    this.modSum = new Float64Array(buffer, this.modAt, 2 * cap * H);
    this.span = new Float64Array(buffer, this.spanAt, cap * H);
    this.list = new Int32Array(buffer, this.listAt, KERNEL_CHUNK * 3);
    this.out = new Float64Array(buffer, this.outAt, KERNEL_CHUNK);
  }

  /** Scores the first `count` arcs of the list into `out`. */
  score(count: number, b2: number): void {
    this.run(this.listAt, count, this.outAt, 0, b2);
  }
}
