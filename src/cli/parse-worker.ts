// A worker thread of `vineparse parse --threads N` (see `ParseWorkerPool`): loads the model as the
// command would, then parses and renders the blocks it is sent, in order.
import { parentPort, workerData } from "node:worker_threads";
import { VineparseError } from "../errors.js";
import { loadPipeline } from "../pipeline/default-model.js";
import { noTaggerError } from "../pipeline/no-tagger.js";
import {
  type AnnotatedSentence,
  pipelineTimes,
  toConllu,
  toJsonLine,
  toTreeText,
} from "../pipeline/pipeline.js";
import { resolvePruneSpec } from "../prune/spec.js";
import { setCascadeAlphas } from "../prune/tune-alphas.js";
import type { ParseWorkerSetup, WorkerReply, WorkerRequest } from "./parse-pool.js";

const port = parentPort!;
const setup = workerData as ParseWorkerSetup;

function reply(r: WorkerReply): void {
  port.postMessage(r);
}

function failure(id: number, e: unknown): WorkerReply {
  if (e instanceof VineparseError)
    return { type: "error", id, code: e.code, message: e.message, file: e.file, line: e.line };
  const err = e instanceof Error ? e : new Error(String(e));
  return { type: "error", id, code: null, message: err.message, stack: err.stack };
}

try {
  const pipeline = loadPipeline(setup.model, { lazyTagger: !setup.tagAll });
  if (setup.prune !== undefined) pipeline.cascade = resolvePruneSpec(setup.prune, pipeline.parser);
  if (setup.alpha !== undefined) setCascadeAlphas(pipeline.cascade, setup.alpha);
  if (setup.timing) pipeline.times = pipelineTimes();
  pipeline.morphMode = setup.morph;
  if (setup.tagAll && !pipeline.hasTagger) throw noTaggerError(setup.model);
  const render: (a: AnnotatedSentence) => string =
    setup.format === "tree" ? toTreeText : setup.format === "json" ? toJsonLine : toConllu;
  port.on("message", (m: WorkerRequest) => {
    if (m.type === "times") {
      reply({ type: "times", times: pipeline.times ?? pipelineTimes() });
      return;
    }
    try {
      let text = "";
      let sentences = 0;
      let tokens = 0;
      let fallbacks = 0;
      let i = 0;
      for (const a of pipeline.annotateEach(m.cs, m.retag)) {
        if (m.spans !== null) a.spans = m.spans[i]!;
        i++;
        text += render(a);
        sentences++;
        tokens += a.forms.length - 1;
        if (a.fallback) fallbacks++;
      }
      reply({ type: "block", id: m.id, text, sentences, tokens, fallbacks });
    } catch (e) {
      reply(failure(m.id, e));
    }
  });
  reply({ type: "ready", prune: pipeline.cascade.name });
} catch (e) {
  reply(failure(-1, e));
}
