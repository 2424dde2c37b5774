/**
 * The page of `vineparse view`, in the browser: loads the model the server offers at `model`, parses
 * the text of the form (or of `?text=…`, at once), and shows each sentence's tree, what the pruning
 * cascade did to its arcs, its CoNLL-U and the times taken.
 *
 * For tests and scripts, `document.body.dataset.state` is "loading", "ready", "parsed" or "error",
 * `#result-json` holds the sentences as `toJson` gives them (a JSON array), and `#result-stages`
 * each sentence's stages as `[{ name, kept }]`.
 */
import {
  type AnnotatedSentence,
  type Pipeline,
  type PruningStage,
  loadPipelineFromBytes,
  toConllu,
  toJson,
  wasmKernels,
} from "../browser.js";
import { arcDiagramSvg, escapeXml, pruningGridSvg } from "./render.js";

/** The page's state, as `document.body.dataset.state`. */
type ViewState = "loading" | "ready" | "parsed" | "error";

/** The element of the page with this id (one clear error when the page lacks it). */
function byId<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`the page has no #${id}`);
  return e as T;
}

function setState(state: ViewState): void {
  document.body.dataset.state = state;
}

/** Shows an error as one line (the first line of its message) and sets the state to "error". */
function showError(e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  const line = message.split("\n")[0]!;
  const el = byId("error");
  el.textContent = `Error: ${line}`;
  el.hidden = false;
  setState("error");
}

/** Milliseconds since `t0`, for display. */
function ms(t0: number): string {
  const d = performance.now() - t0;
  return d < 10 ? d.toFixed(2) : d.toFixed(0);
}

/** Fetches the model's bytes from the server (`model`, relative to the page). */
async function fetchModel(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status} ${r.statusText}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** The HTML of one parsed sentence: header with times, arc diagram, pruning grid, CoNLL-U. */
function sentenceHtml(
  i: number,
  a: AnnotatedSentence,
  stages: readonly PruningStage[],
  parseMs: string,
  pruneMs: string,
): string {
  const n = a.forms.length - 1;
  const last = stages[stages.length - 1];
  const kept =
    last === undefined || n === 0 ? "" : `, ${((100 * last.kept) / (n * n)).toFixed(1)}% of arcs left`;
  const fallback = a.fallback ? " — the decoder fell back: the pruned arcs admitted no tree" : "";
  return [
    `<section class="sentence" data-index="${i}">`,
    `<h2>Sentence ${i + 1} <small>${n} words, parsed in ${parseMs} ms; pruning stages in ${pruneMs} ms${kept}${escapeXml(fallback)}</small></h2>`,
    `<div class="figure">${arcDiagramSvg(a)}</div>`,
    `<details class="pruning" open><summary>Pruning: ${stages.length - 1} pass${stages.length === 2 ? "" : "es"}</summary>`,
    `<div class="figure">${pruningGridSvg(a, stages)}</div></details>`,
    `<details class="conllu"><summary>CoNLL-U</summary><pre>${escapeXml(toConllu(a))}</pre></details>`,
    `</section>`,
  ].join("\n");
}

/**
 * Parses `text` and shows the result. Each sentence's own parse time is measured by parsing it again
 * on its own (its CoNLL-U block, retagged), as the whole text's time includes splitting it.
 */
function parseAndShow(pipeline: Pipeline, text: string): void {
  byId("error").hidden = true;
  const t0 = performance.now();
  const sentences = pipeline.parseText(text);
  const total = ms(t0);
  const parts: string[] = [];
  const stageJson: { name: string; kept: number }[][] = [];
  let words = 0;
  sentences.forEach((a, i) => {
    const t1 = performance.now();
    pipeline.annotate(a.conllu, true);
    const parseMs = ms(t1);
    const t2 = performance.now();
    const stages = pipeline.pruningStages(a);
    const pruneMs = ms(t2);
    stageJson.push(stages.map((s) => ({ name: s.name, kept: s.kept })));
    words += a.forms.length - 1;
    parts.push(sentenceHtml(i, a, stages, parseMs, pruneMs));
  });
  byId("summary").textContent =
    `${sentences.length} sentence${sentences.length === 1 ? "" : "s"}, ${words} words, parsed in ${total} ms`;
  byId("output").innerHTML = parts.join("\n");
  byId("result-json").textContent = JSON.stringify(sentences.map(toJson));
  byId("result-stages").textContent = JSON.stringify(stageJson);
  setState("parsed");
}

/** Loads the model, wires the form, and parses `?text=` if given. */
async function main(): Promise<void> {
  setState("loading");
  const status = byId("status");
  status.textContent = "Loading the model…";
  const t0 = performance.now();
  const bytes = await fetchModel("model");
  const fetched = ms(t0);
  const t1 = performance.now();
  const pipeline = await loadPipelineFromBytes(bytes, "model");
  status.textContent =
    `Model loaded: ${(bytes.length / 1048576).toFixed(1)} MiB fetched in ${fetched} ms, ` +
    `decoded in ${ms(t1)} ms${pipeline.hasTagger ? "" : " (no tagger: this model cannot parse raw text)"}; ` +
    `WebAssembly SIMD kernels: ${Object.values(wasmKernels()).every((on) => on) ? "on" : "off (JavaScript fallbacks)"}.`;
  setState("ready");
  const form = byId<HTMLFormElement>("parse-form");
  const input = byId<HTMLTextAreaElement>("text");
  const button = byId<HTMLButtonElement>("parse");
  button.disabled = false;
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    try {
      parseAndShow(pipeline, input.value);
    } catch (e) {
      showError(e);
    }
  });
  const initial = new URLSearchParams(location.search).get("text");
  if (initial !== null) {
    input.value = initial;
    parseAndShow(pipeline, initial);
  }
}

main().catch(showError);
