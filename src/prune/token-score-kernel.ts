/**
 * The inner loop of token-role scoring: for one token's feature slots f_1 … f_k, the eight sums
 * Σ_j weights[f_j * 8 + d] (d = 0 … 7) over the interleaved 16-bit weight table. Two implementations
 * with bit-identical results: a WebAssembly SIMD kernel (one 16-byte load, two widenings and two
 * 4-lane adds per feature) where the runtime supports it, and a plain JavaScript loop otherwise.
 */

import { hexBytes, lazyModule, LITTLE_ENDIAN } from "../util/wasm-module.js";

/** The weight table and the buffers one kernel owns. */
export interface TokenScoreKernel {
  /** "wasm-simd" or "js". */
  readonly kind: string;
  /** The 16-bit weights, weights[f * 8 + d] (a copy in WebAssembly memory; the JavaScript loop reads the caller's table). */
  readonly weights: Int16Array;
  /** Where the caller writes a token's feature slots before `sum`. */
  readonly slots: Int32Array;
  /** After `sum(k)`: the eight integer sums. */
  readonly sums: Int32Array;
  /** Sums the weights of slots[0 … k−1] into `sums`. */
  sum(k: number): void;
}

/** Decisions per feature slot (one 16-byte row of the table). */
const ROW = 8;

/**
 * The WebAssembly module, written out by hand (binary format, SIMD proposal opcodes): it imports
 * its memory as e.m and exports s(slots, k, out), which reads k 32-bit slot numbers at byte offset
 * `slots`, adds up the 16-byte weight rows they name (row f at byte 16·f) as two i32x4 accumulators
 * (the i16 lanes sign-extended, so no sum can overflow at 256 features), and stores them at `out`.
 */
const KERNEL_HEX = [
  "00 61 73 6d 01 00 00 00", // "\0asm", version 1
  "01 07 01 60 03 7f 7f 7f 00", // types: (i32 i32 i32) → ()
  "02 08 01 01 65 01 6d 02 00 01", // import e.m: memory, min 1 page
  "03 02 01 00", // one function of type 0
  "07 05 01 01 73 00 00", // export it as "s"
  "0a 5c 01 5a", // code: one body of 90 bytes
  "02 01 7f 03 7b", // locals: 3 end (i32); 4 acc0, 5 acc1, 6 row (v128)
  "20 00 20 01 41 02 74 6a 21 03", // end = slots + (k << 2)
  "02 40 03 40", // block, loop
  "20 00 20 03 4f 0d 01", // if slots >= end: break
  "20 00 28 02 00 41 04 74", // i32.load slot, << 4
  "fd 00 04 00 22 06", // v128.load the row, tee row
  "fd a7 01 20 04 fd ae 01 21 04", // acc0 += i32x4.extend_low_i16x8_s(row)
  "20 06 fd a8 01 20 05 fd ae 01 21 05", // acc1 += i32x4.extend_high_i16x8_s(row)
  "20 00 41 04 6a 21 00", // slots += 4
  "0c 00 0b 0b", // continue; end loop, end block
  "20 02 20 04 fd 0b 04 00", // v128.store out, acc0
  "20 02 20 05 fd 0b 04 10", // v128.store out + 16, acc1
  "0b", // end
];

/** The compiled module, or null where WebAssembly or its SIMD instructions are missing. */
const kernelModule = lazyModule(hexBytes(KERNEL_HEX));

/** Whether this runtime runs the WebAssembly SIMD kernel. */
export function hasSimdKernel(): boolean {
  return kernelModule() !== null;
}

/**
 * A kernel over a copy of `weights` (ROW entries per slot) with room for `maxSlots` slots per call:
 * the WebAssembly one unless `prefer` is "js" or the runtime lacks SIMD (or is big-endian).
 */
export function tokenScoreKernel(
  weights: Int16Array,
  maxSlots: number,
  prefer: "auto" | "js" = "auto",
): TokenScoreKernel {
  if (weights.length % ROW !== 0) throw new RangeError("tokenScoreKernel: rows of 8 weights");
  const mod = prefer === "auto" && LITTLE_ENDIAN ? kernelModule() : null;
  return mod !== null ? new SimdKernel(mod, weights, maxSlots) : new JsKernel(weights, maxSlots);
}

class SimdKernel implements TokenScoreKernel {
  readonly kind = "wasm-simd";
  readonly weights: Int16Array;
  readonly slots: Int32Array;
  readonly sums: Int32Array;
  private readonly run: (slots: number, k: number, out: number) => void;
  private readonly slotsAt: number;
  private readonly sumsAt: number;

  constructor(mod: WebAssembly.Module, weights: Int16Array, maxSlots: number) {
    const tableBytes = weights.length * 2;
    this.slotsAt = tableBytes;
    this.sumsAt = tableBytes + maxSlots * 4;
    const bytes = this.sumsAt + ROW * 4;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) });
    const instance = new WebAssembly.Instance(mod, { e: { m: memory } });
    this.run = instance.exports.s as (slots: number, k: number, out: number) => void;
    const buffer = memory.buffer;
    this.weights = new Int16Array(buffer, 0, weights.length);
    this.weights.set(weights);
    this.slots = new Int32Array(buffer, this.slotsAt, maxSlots);
    this.sums = new Int32Array(buffer, this.sumsAt, ROW);
  }

  sum(k: number): void {
    this.run(this.slotsAt, k, this.sumsAt);
  }
}

class JsKernel implements TokenScoreKernel {
  readonly kind = "js";
  readonly weights: Int16Array;
  readonly slots: Int32Array;
  readonly sums = new Int32Array(ROW);
  /**
   * The weights two to an int32 (decision 2k in the low half): four reads per slot. A view of the
   * same memory on little-endian machines when aligned, a packed copy otherwise.
   */
  private readonly pairs: Int32Array;

  constructor(weights: Int16Array, maxSlots: number) {
    this.weights = weights;
    this.slots = new Int32Array(maxSlots);
    if (LITTLE_ENDIAN && weights.byteOffset % 4 === 0)
      this.pairs = new Int32Array(weights.buffer, weights.byteOffset, weights.length >> 1);
    else {
      const pairs = new Int32Array(weights.length >> 1);
      for (let p = 0; p < pairs.length; p++)
        pairs[p] = (weights[2 * p]! & 0xffff) | (weights[2 * p + 1]! << 16);
      this.pairs = pairs;
    }
  }

  sum(k: number): void {
    const w = this.pairs;
    const buf = this.slots;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    // Each half is sign-extended, so the sums are exactly those of the 16-bit weights.
    for (let j = 0; j < k; j++) {
      const b = buf[j]! << 2;
      const x0 = w[b]!;
      const x1 = w[b + 1]!;
      const x2 = w[b + 2]!;
      const x3 = w[b + 3]!;
      s0 += (x0 << 16) >> 16;
      s1 += x0 >> 16;
      s2 += (x1 << 16) >> 16;
      s3 += x1 >> 16;
      s4 += (x2 << 16) >> 16;
      s5 += x2 >> 16;
      s6 += (x3 << 16) >> 16;
      s7 += x3 >> 16;
    }
    const out = this.sums;
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
    out[4] = s4;
    out[5] = s5;
    out[6] = s6;
    out[7] = s7;
  }
}
