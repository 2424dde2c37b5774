import { VineparseError } from "../errors.js";
import { type ConlluSentence, HEAD, ID } from "./types.js";

const INT = /^(0|[1-9][0-9]*)$/;
const RANGE = /^[1-9][0-9]*-[1-9][0-9]*$/;
const EMPTY = /^(0|[1-9][0-9]*)\.[1-9][0-9]*$/;

/** Kind of a CoNLL-U row by its ID column. */
export type RowKind = "word" | "range" | "empty";

/** Classifies a row's ID, throwing a located error for anything that is not an integer, range or decimal ID. */
export function rowKind(id: string, file: string, line: number): RowKind {
  if (INT.test(id) && id !== "0") return "word";
  if (RANGE.test(id)) return "range";
  if (EMPTY.test(id)) return "empty";
  throw new VineparseError(
    "conllu-id",
    `bad ID "${id}" (expected an integer, a range like 3-4, or a decimal like 5.1)`,
    file,
    line,
  );
}

/**
 * Checks the basic tree of a sentence: IDs 1..n in order, every HEAD an integer in 0..n (or "_" when
 * `requireTree` is false), and — when all heads are present — a single connected tree without cycles;
 * with `singleRoot`, also that only one word has HEAD 0 (UD). Returns the heads (index 0 = -1; -1
 * also for a missing head).
 */
export function validateTree(s: ConlluSentence, requireTree: boolean, singleRoot = false): Int32Array {
  const n = s.words.length;
  const heads = new Int32Array(n + 1);
  heads[0] = -1;
  let missing = 0;
  for (let i = 1; i <= n; i++) {
    const cols = s.words[i - 1]!;
    const line = s.startLine + s.wordLine[i - 1]!;
    if (cols[ID] !== String(i)) {
      throw new VineparseError(
        "conllu-id-order",
        `word ID "${cols[ID]}" out of order (expected ${i})`,
        s.file,
        line,
      );
    }
    const h = cols[HEAD]!;
    if (h === "_" && !requireTree) {
      heads[i] = -1;
      missing++;
      continue;
    }
    if (!INT.test(h)) throw new VineparseError("conllu-head", `HEAD "${h}" is not an integer`, s.file, line);
    const v = Number(h);
    if (v > n)
      throw new VineparseError(
        "conllu-head",
        `HEAD ${v} is out of range (sentence has ${n} words)`,
        s.file,
        line,
      );
    if (v === i) throw new VineparseError("conllu-cycle", `word ${i} is its own head`, s.file, line);
    heads[i] = v;
  }
  if (missing > 0) {
    if (missing !== n) {
      throw new VineparseError(
        "conllu-head",
        "some words have a HEAD and others do not",
        s.file,
        s.startLine,
      );
    }
    return heads;
  }
  // Every word must reach the root (0) without revisiting a node.
  const state = new Uint8Array(n + 1); // 0 unvisited, 1 on current path, 2 done
  state[0] = 2;
  let roots = 0;
  for (let i = 1; i <= n; i++) {
    if (heads[i] !== 0) continue;
    roots++;
    if (singleRoot && roots === 2) {
      throw new VineparseError(
        "conllu-roots",
        `a second word with HEAD 0 (word ${i}; a tree has one root)`,
        s.file,
        s.startLine + s.wordLine[i - 1]!,
      );
    }
  }
  if (roots === 0 && n > 0)
    throw new VineparseError("conllu-no-root", "no word has HEAD 0", s.file, s.startLine);
  for (let i = 1; i <= n; i++) {
    let j = i;
    while (state[j] === 0) {
      state[j] = 1;
      j = heads[j]!;
    }
    if (state[j] === 1) {
      throw new VineparseError(
        "conllu-cycle",
        `cycle through word ${j}`,
        s.file,
        s.startLine + s.wordLine[j - 1]!,
      );
    }
    j = i;
    while (state[j] === 1) {
      state[j] = 2;
      j = heads[j]!;
    }
  }
  return heads;
}
