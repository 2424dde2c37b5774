import { VineparseError } from "../errors.js";
import { decodeModel, fromModelContent, isModelFile, type ModelData } from "../model/model-file.js";
import { decodeUtf8 } from "../util/utf8.js";
import { readFileBytes } from "../util/read-file.js";

/** Model-file kind of a word-vector table. */
export const VECTORS_KIND = "word-vectors";
/** Version of the stored table; bump when the layout changes. */
export const VECTORS_VERSION = 1;

/**
 * Word vectors learned from unlabelled text, for lower-cased word forms, stored compactly: one
 * signed byte per dimension with a scale per dimension (value = q × scale[j] / 127). Used to give
 * words that a treebank never shows a guess of their tags (`WordGuesser`).
 */
export class WordVectors {
  readonly words: readonly string[];
  readonly dim: number;
  /** n × dim quantized components, row-major. */
  readonly data: Int8Array;
  /** Largest absolute value of each dimension (the scale of ±127). */
  readonly scale: Float32Array;
  private readonly index = new Map<string, number>();

  constructor(words: readonly string[], dim: number, data: Int8Array, scale: Float32Array) {
    if (data.length !== words.length * dim || scale.length !== dim)
      throw new RangeError("inconsistent vector arrays");
    this.words = words;
    this.dim = dim;
    this.data = data;
    this.scale = scale;
    for (let e = 0; e < words.length; e++) this.index.set(words[e]!, e);
  }

  /** Quantizes n × dim float vectors (row-major) to a table. */
  static quantize(words: readonly string[], dim: number, v: Float32Array | Float64Array): WordVectors {
    const n = words.length;
    const scale = new Float32Array(dim);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < dim; j++) scale[j] = Math.max(scale[j]!, Math.abs(v[i * dim + j]!));
    const data = new Int8Array(n * dim);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < dim; j++) {
        const s = scale[j]!;
        data[i * dim + j] = s > 0 ? Math.round((v[i * dim + j]! / s) * 127) : 0;
      }
    return new WordVectors(words, dim, data, scale);
  }

  /** Number of words. */
  get size(): number {
    return this.words.length;
  }

  /** Entry of a lower-cased word form, or -1. */
  get(lower: string): number {
    return this.index.get(lower) ?? -1;
  }

  /** Writes the (de-quantized) vector of entry e into out[k…k + dim). */
  vector(e: number, out: Float64Array, k = 0): void {
    const d = this.dim;
    for (let j = 0; j < d; j++) out[k + j] = (this.data[e * d + j]! * this.scale[j]!) / 127;
  }

  /** Model-file content: words in meta (the container is gzip-compressed), components as arrays. */
  toModelData(info: Record<string, unknown> = {}): ModelData {
    return {
      kind: VECTORS_KIND,
      meta: { version: VECTORS_VERSION, dim: this.dim, words: this.words.join("\n"), info },
      arrays: { data: this.data, scale: this.scale },
    };
  }

  /** Rebuilds a table from `toModelData` content. */
  static fromModelData(m: ModelData, file = "<model>"): WordVectors {
    const meta = m.meta as { version?: number; dim?: number; words?: string };
    if (meta.version !== VECTORS_VERSION) {
      throw new VineparseError(
        "model-version",
        `word-vector table version ${meta.version} is not supported (expected ${VECTORS_VERSION}); rebuild it`,
        file,
      );
    }
    const { data, scale } = m.arrays;
    if (
      typeof meta.words !== "string" ||
      typeof meta.dim !== "number" ||
      !(data instanceof Int8Array) ||
      !(scale instanceof Float32Array)
    ) {
      throw new VineparseError("model-corrupt", "word-vector table is incomplete", file);
    }
    try {
      return new WordVectors(meta.words === "" ? [] : meta.words.split("\n"), meta.dim, data, scale);
    } catch (e) {
      throw new VineparseError("model-corrupt", `word-vector table: ${(e as Error).message}`, file);
    }
  }
}

/**
 * Reads word vectors: a vineparse vector table (`npm run build-vectors`), or a text file with one
 * word and its components per line, separated by spaces (GloVe, word2vec and fastText .vec text
 * format; a first line of two integers, "count dimensions", is skipped). Words are lower-cased and
 * the first vector of a form is kept. Bad lines are errors naming the file and line.
 */
export function readWordVectors(path: string): WordVectors {
  const bytes = readFileBytes(path, "vector file");
  if (isModelFile(bytes)) {
    const m = decodeModel(bytes, path, VECTORS_KIND);
    return fromModelContent(path, () => WordVectors.fromModelData(m, path));
  }
  const lines = decodeUtf8(bytes, path).split("\n");
  const words: string[] = [];
  const seen = new Set<string>();
  const values: number[] = [];
  let dim = -1;
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln]!.trimEnd();
    if (line === "") continue;
    const parts = line.split(" ");
    if (ln === 0 && parts.length === 2 && /^\d+$/.test(parts[0]!) && /^\d+$/.test(parts[1]!)) continue;
    if (dim < 0) dim = parts.length - 1;
    if (parts.length - 1 !== dim || dim < 1) {
      throw new VineparseError(
        "vectors-format",
        `expected a word and ${dim < 1 ? "at least one number" : `${dim} numbers`}, found ${parts.length} fields`,
        path,
        ln + 1,
      );
    }
    const w = parts[0]!.toLowerCase();
    if (seen.has(w)) continue;
    for (let j = 1; j <= dim; j++) {
      const v = Number(parts[j]);
      if (!Number.isFinite(v)) {
        throw new VineparseError("vectors-format", `"${parts[j]}" is not a number`, path, ln + 1);
      }
      values.push(v);
    }
    seen.add(w);
    words.push(w);
  }
  if (words.length === 0) throw new VineparseError("vectors-format", "no vectors in the file", path);
  return WordVectors.quantize(words, dim, Float64Array.from(values));
}

/**
 * Centres n × dim vectors (row-major) and expresses them in the basis of their top `k` principal
 * components (k = dim: a rotation onto uncorrelated axes, which suits the per-coordinate steps of
 * the guesser's AdaGrad). The covariance matrix's eigenvectors come one at a time by power
 * iteration from fixed starts, with deflation: deterministic. Returns n × k values.
 */
export function principalComponents(v: Float32Array, n: number, dim: number, k: number): Float64Array {
  if (k > dim) throw new RangeError(`cannot keep ${k} of ${dim} dimensions`);
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) for (let j = 0; j < dim; j++) mean[j] += v[i * dim + j]!;
  for (let j = 0; j < dim; j++) mean[j] /= n;
  const cov = new Float64Array(dim * dim);
  const row = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < dim; j++) row[j] = v[i * dim + j]! - mean[j]!;
    for (let a = 0; a < dim; a++) {
      const ra = row[a]!;
      for (let b = a; b < dim; b++) cov[a * dim + b] += ra * row[b]!;
    }
  }
  for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) cov[a * dim + b] = cov[b * dim + a]!;
  const comps = new Float64Array(k * dim);
  const x = new Float64Array(dim);
  const y = new Float64Array(dim);
  for (let c = 0; c < k; c++) {
    x.fill(1 / Math.sqrt(dim));
    x[c] += 1;
    for (let step = 0; step < 500; step++) {
      for (let a = 0; a < dim; a++) {
        let s = 0;
        for (let b = 0; b < dim; b++) s += cov[a * dim + b]! * x[b]!;
        y[a] = s;
      }
      let norm = 0;
      for (let a = 0; a < dim; a++) norm += y[a]! ** 2;
      norm = Math.sqrt(norm);
      if (norm === 0) break;
      let change = 0;
      for (let a = 0; a < dim; a++) {
        const z = y[a]! / norm;
        change += Math.abs(z - x[a]!);
        x[a] = z;
      }
      if (change < 1e-10) break;
    }
    // Deflate: cov −= λ x xᵀ with λ = xᵀ cov x.
    let lambda = 0;
    for (let a = 0; a < dim; a++) {
      let s = 0;
      for (let b = 0; b < dim; b++) s += cov[a * dim + b]! * x[b]!;
      lambda += x[a]! * s;
    }
    for (let a = 0; a < dim; a++) for (let b = 0; b < dim; b++) cov[a * dim + b] -= lambda * x[a]! * x[b]!;
    comps.set(x, c * dim);
  }
  const out = new Float64Array(n * k);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let j = 0; j < dim; j++) s += (v[i * dim + j]! - mean[j]!) * comps[c * dim + j]!;
      out[i * k + c] = s;
    }
  return out;
}
