/**
 * A hashed linear model trained online (perceptron / MIRA) with parameter averaging by the
 * "lazy sum" trick: alongside w we keep u = Σ c·Δ (c = steps completed before the update), so the
 * mean of w over the c steps so far is w − u / c.
 */
export class AveragedWeights {
  /** Number of weights. */
  readonly size: number;
  /** Current weights. */
  readonly w: Float32Array;
  private readonly u: Float64Array;
  /** Step counter: number of training instances seen (`tick` calls). */
  c = 0;

  constructor(size: number) {
    this.size = size;
    this.w = new Float32Array(this.size);
    this.u = new Float64Array(this.size);
  }

  /** Adds `delta` to every listed weight (an index listed twice is updated twice). */
  update(idx: Int32Array, count: number, delta: number): void {
    const w = this.w;
    const u = this.u;
    const cd = this.c * delta;
    for (let i = 0; i < count; i++) {
      const j = idx[i]!;
      w[j] = w[j]! + delta;
      u[j] = u[j]! + cd;
    }
  }

  /** Adds `delta` to one weight. */
  addAt(j: number, delta: number): void {
    this.w[j] = this.w[j]! + delta;
    this.u[j] = this.u[j]! + this.c * delta;
  }

  /** Advances the step counter (call once per training instance). */
  tick(): void {
    this.c++;
  }

  /** The averaged weights (mean of w after every tick so far) as a fresh array. */
  averaged(): Float32Array {
    const out = new Float32Array(this.size);
    const inv = 1 / (this.c > 0 ? this.c : 1);
    const w = this.w;
    const u = this.u;
    for (let i = 0; i < this.size; i++) out[i] = w[i]! - u[i]! * inv;
    return out;
  }
}

/** Sum of the weights at the listed indices. */
export function dot(w: Float32Array, idx: Int32Array, count: number): number {
  let s = 0;
  for (let i = 0; i < count; i++) s += w[idx[i]!]!;
  return s;
}

/**
 * A sparse feature-count vector over a hashed index space, used to build φ(gold) − φ(predicted)
 * for MIRA: duplicates are merged, so `squaredNorm` is exact.
 */
export class SparseDelta {
  private readonly val: Float32Array;
  private readonly mark: Uint8Array;
  private touched: Int32Array;
  private count = 0;

  constructor(size: number) {
    this.val = new Float32Array(size);
    this.mark = new Uint8Array(size);
    this.touched = new Int32Array(1024);
  }

  /** Adds `v` to every listed index. */
  add(idx: Int32Array, n: number, v: number): void {
    for (let i = 0; i < n; i++) {
      const j = idx[i]!;
      if (this.mark[j] === 0) {
        this.mark[j] = 1;
        if (this.count === this.touched.length) {
          const t = new Int32Array(this.touched.length * 2);
          t.set(this.touched);
          this.touched = t;
        }
        this.touched[this.count++] = j;
      }
      this.val[j] = this.val[j]! + v;
    }
  }

  /** Σ v². */
  squaredNorm(): number {
    let s = 0;
    for (let i = 0; i < this.count; i++) {
      const v = this.val[this.touched[i]!]!;
      s += v * v;
    }
    return s;
  }

  /** Applies w += scale · delta to an averaged model, then clears the vector. */
  applyAndClear(model: AveragedWeights, scale: number): void {
    for (let i = 0; i < this.count; i++) {
      const j = this.touched[i]!;
      const v = this.val[j]!;
      if (v !== 0) model.addAt(j, scale * v);
    }
    this.clear();
  }

  /** Resets to the zero vector. */
  clear(): void {
    for (let i = 0; i < this.count; i++) {
      const j = this.touched[i]!;
      this.val[j] = 0;
      this.mark[j] = 0;
    }
    this.count = 0;
  }
}

/** The 1-best MIRA step size: min(C, (loss − margin) / ‖Δφ‖²), or 0 when the constraint already holds. */
export function miraStep(loss: number, margin: number, sqNorm: number, C: number): number {
  if (sqNorm <= 0) return 0;
  const tau = (loss - margin) / sqNorm;
  return tau <= 0 ? 0 : tau < C ? tau : C;
}
