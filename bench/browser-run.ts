// One timed run of the browser core, the same code in a browser page and in a Node process (see
// exp-browser.ts): fetch a model's bytes, decode them into a pipeline, parse a raw text several times.
// Imports only the browser entry, so that a page can load it as a module.
import { loadPipelineFromBytes } from "../src/browser.js";

/** What one run measured. */
export interface BrowserRun {
  /** Milliseconds to fetch (or read) the model's bytes. */
  fetchMs: number;
  /** Milliseconds to decode them and build the pipeline (`loadPipelineFromBytes`). */
  loadMs: number;
  /** Milliseconds of each parse of the whole text (the first one warms the JIT up). */
  parseMs: number[];
  sentences: number;
  tokens: number;
  /** FNV-1a hash of every word's head and relation: the same text must parse the same everywhere. */
  digest: string;
}

/** 32-bit FNV-1a of a string's UTF-16 code units, in hex. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Fetches the model and the text, builds the pipeline, and parses the text `reps` times. */
export async function browserRun(
  fetchModel: () => Promise<Uint8Array>,
  fetchText: () => Promise<string>,
  reps: number,
): Promise<BrowserRun> {
  const t0 = performance.now();
  const bytes = await fetchModel();
  const t1 = performance.now();
  const pipeline = await loadPipelineFromBytes(bytes, "model");
  const t2 = performance.now();
  const text = await fetchText();
  const parseMs: number[] = [];
  let sentences = 0;
  let tokens = 0;
  let digest = "";
  for (let r = 0; r < reps; r++) {
    const s = performance.now();
    const out = pipeline.parseText(text);
    parseMs.push(performance.now() - s);
    if (r === 0) {
      sentences = out.length;
      const parts: string[] = [];
      for (const a of out) {
        tokens += a.forms.length - 1;
        for (let m = 1; m < a.forms.length; m++)
          parts.push(`${a.heads[m]}:${a.deprels[m]}:${a.lemmas?.[m] ?? ""}:${a.feats?.[m] ?? ""}`);
        parts.push("|");
      }
      digest = fnv1a(parts.join(" "));
    }
  }
  return { fetchMs: t1 - t0, loadMs: t2 - t1, parseMs, sentences, tokens, digest };
}
