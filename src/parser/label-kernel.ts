/**
 * Sums of dense label rows as a WebAssembly SIMD kernel: for a list of rows (byte offsets of rows of
 * 16-bit weights, 8 per group), acc (32-bit, 8 per group) = Σ rows, each group of 8 weights widened to
 * two i32x4 lanes and added. Integer sums: the same as adding the weights one by one, in any order.
 */

import { hexBytes, lazyModule, LITTLE_ENDIAN, wasmModuleBytes } from "../util/wasm-module.js";

/**
 * The function's body, from this text (WebAssembly text format):
 *
 *   (func (export "d") (param $list i32) (param $count i32) (param $acc i32) (param $groups i32)
 *     (local $end i32) (local $g i32) (local $a i32) (local $r i32) (local $v v128)
 *     a = acc; g = 2 · groups
 *     (block $z (loop $zl (br_if $z (i32.eqz g)) (v128.store a (v128.const 0)) a += 16; g -= 1 (br $zl)))
 *     end = list + 4 · count
 *     (block $done (loop $rows
 *       (br_if $done (i32.ge_u list end))
 *       r = (i32.load list); a = acc; g = groups
 *       (loop $grp
 *         v = (v128.load r)
 *         (v128.store a (i32x4.add (v128.load a) (i32x4.extend_low_i16x8_s v)))
 *         (v128.store offset=16 a (i32x4.add (v128.load offset=16 a) (i32x4.extend_high_i16x8_s v)))
 *         r += 16; a += 32; g -= 1
 *         (br_if $grp g))
 *       list += 4
 *       (br $rows))))
 */
const BODY_HEX = [
  "02 04 7f 01 7b", // locals: 4 i32 (end, g, a, r), 1 v128 (v)
  "20 02 21 06", // a = acc
  "20 03 41 01 74 21 05", // g = groups << 1
  "02 40 03 40", // block $z, loop $zl
  "20 05 45 0d 01", // if g == 0: break
  "20 06 fd 0c 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 fd 0b 04 00", // v128.store a, 0
  "20 06 41 10 6a 21 06", // a += 16
  "20 05 41 01 6b 21 05", // g -= 1
  "0c 00 0b 0b", // continue $zl; end loop, end block
  "20 00 20 01 41 02 74 6a 21 04", // end = list + (count << 2)
  "02 40 03 40", // block $done, loop $rows
  "20 00 20 04 4f 0d 01", // if list >= end: break
  "20 00 28 02 00 21 07", // r = i32.load list
  "20 02 21 06", // a = acc
  "20 03 21 05", // g = groups
  "03 40", // loop $grp
  "20 07 fd 00 04 00 21 08", // v = v128.load r
  "20 06 20 06 fd 00 04 00 20 08 fd a7 01 fd ae 01 fd 0b 04 00", // a[0..3] += extend_low(v)
  "20 06 20 06 fd 00 04 10 20 08 fd a8 01 fd ae 01 fd 0b 04 10", // a[4..7] += extend_high(v)
  "20 07 41 10 6a 21 07", // r += 16
  "20 06 41 20 6a 21 06", // a += 32
  "20 05 41 01 6b 21 05", // g -= 1
  "20 05 0d 00 0b", // continue while g; end loop $grp
  "20 00 41 04 6a 21 00", // list += 4
  "0c 00 0b 0b 0b", // continue $rows; end loop, end block, end function
];

/** The compiled module (one function "d" over an imported memory), or null without WebAssembly SIMD. */
const kernelModule = lazyModule(
  wasmModuleBytes({
    type: "01 60 04 7f 7f 7f 7f 00", // one type: (i32 i32 i32 i32) → ()
    imports: "01 01 65 01 6d 02 00 01", // e.m: memory, min 1 page
    functions: "01 00", // one function of type 0
    exports: "01 01 64 00 00", // exported as "d"
    bodies: [hexBytes(BODY_HEX)],
  }),
);

/** Whether this runtime runs the label kernel. */
export function hasLabelKernel(): boolean {
  return LITTLE_ENDIAN && kernelModule() !== null;
}

/**
 * One instance of the kernel with its memory: the accumulator (`acc`, 8 · groups 32-bit sums), the
 * list of rows to add, and a copy of the dense rows (`groups` groups of 8 weights each; the rows must
 * not change while the kernel uses them).
 */
export class LabelKernel {
  /** The sums of the last `sum` (and whatever is added to them afterwards). */
  readonly acc: Int32Array;
  /** Byte offset of each dense row: the list holds these. */
  readonly rowAt: number;
  /** Bytes per dense row. */
  readonly rowBytes: number;
  /** Rows listed for the next `sum` (byte offsets, from `rowAt + row · rowBytes`). */
  readonly list: Int32Array;
  private readonly run: (list: number, count: number, acc: number, groups: number) => void;
  private readonly listAt: number;

  constructor(
    /** Dense rows, `groups` · 8 weights each. */
    dense: Int16Array,
    /** Groups of 8 weights per row. */
    readonly groups: number,
    /** Most rows one `sum` adds. */
    readonly maxRows: number,
  ) {
    this.rowBytes = groups * 16;
    this.listAt = groups * 32;
    this.rowAt = this.listAt + maxRows * 4;
    const bytes = this.rowAt + dense.length * 2;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    const instance = new WebAssembly.Instance(kernelModule()!, { e: { m: memory } });
    this.run = instance.exports.d as LabelKernel["run"];
    const buffer = memory.buffer;
    this.acc = new Int32Array(buffer, 0, groups * 8);
    this.list = new Int32Array(buffer, this.listAt, maxRows);
    new Int16Array(buffer, this.rowAt, dense.length).set(dense);
  }

  /** Sets `acc` to the sum of the first `count` listed rows (zero for none). */
  sum(count: number): void {
    this.run(this.listAt, count, 0, this.groups);
  }
}
