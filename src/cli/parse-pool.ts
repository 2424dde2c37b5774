import { Worker } from "node:worker_threads";
import type { ConlluSentence } from "../conllu/types.js";
import { VineparseError } from "../errors.js";
import type { MorphMode, PipelineTimes } from "../pipeline/pipeline.js";

/** What every worker loads and how it writes sentences out (as `vineparse parse` would itself). */
export interface ParseWorkerSetup {
  /** Model path (undefined: the bundled model). */
  model: string | undefined;
  /** `--prune` spec, if any. */
  prune: string | undefined;
  /** `--alpha` values, if any. */
  alpha: number[] | undefined;
  /** Whether every sentence is tagged (raw text, `--retag`): the tagger is built at once, and required. */
  tagAll: boolean;
  /** Keep stage times (`--timing`). */
  timing: boolean;
  /** Output format. */
  format: "conllu" | "tree" | "json";
  /** `--morph`: where the bundle's morph model fills LEMMA and FEATS. */
  morph: MorphMode;
}

/** A block as a worker returns it: its sentences rendered, and what the summary counts. */
export interface ParsedBlock {
  text: string;
  sentences: number;
  tokens: number;
  fallbacks: number;
}

/** Messages from a worker. */
export type WorkerReply =
  | { type: "ready"; prune: string }
  | ({ type: "block"; id: number } & ParsedBlock)
  | { type: "times"; times: PipelineTimes }
  | {
      type: "error";
      id: number;
      code: string | null;
      message: string;
      file?: string;
      line?: number;
      stack?: string;
    };

/** Messages to a worker. */
export type WorkerRequest =
  | { type: "block"; id: number; cs: ConlluSentence[]; retag: boolean; spans: number[][] | null }
  | { type: "times" };

/** The error a worker reported, as the main thread throws it (a user error stays one line). */
function errorOf(r: Extract<WorkerReply, { type: "error" }>): Error {
  if (r.code === null) {
    const e = new Error(r.message);
    if (r.stack !== undefined) e.stack = r.stack;
    return e;
  }
  const where = r.file === undefined ? "" : r.line === undefined ? `${r.file}: ` : `${r.file}:${r.line}: `;
  const bare = where !== "" && r.message.startsWith(where) ? r.message.slice(where.length) : r.message;
  return new VineparseError(r.code, bare, r.file, r.line);
}

interface Pending {
  resolve: (b: ParsedBlock) => void;
  reject: (e: Error) => void;
}

/**
 * Worker threads that each load the model and parse whole blocks (`Pipeline.annotateEach`), for
 * `vineparse parse --threads N`: the main thread reads and splits the input and writes the blocks
 * back in their order. Each worker holds a copy of the model. A block goes to the worker with the
 * fewest blocks queued.
 */
export class ParseWorkerPool {
  private readonly workers: Worker[];
  private readonly queued: number[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;
  private timesWaiting: ((t: PipelineTimes) => void)[] = [];
  /** The cascade's name, as the workers' pipelines report it. */
  prune = "";

  private constructor(workers: Worker[]) {
    this.workers = workers;
    this.queued = workers.map(() => 0);
  }

  /** Starts `n` workers and waits until every one has loaded the model (or throws the first failure). */
  static async start(n: number, setup: ParseWorkerSetup): Promise<ParseWorkerPool> {
    const url = new URL("./parse-worker.js", import.meta.url);
    const workers: Worker[] = [];
    for (let i = 0; i < n; i++) workers.push(new Worker(url, { workerData: setup }));
    const pool = new ParseWorkerPool(workers);
    try {
      const names = await Promise.all(workers.map((w, i) => pool.listen(w, i)));
      pool.prune = names[0]!;
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Wires a worker's messages; resolves with its cascade's name once it is ready. */
  private listen(w: Worker, index: number): Promise<string> {
    return new Promise((ready, failed) => {
      let started = false;
      const fail = (e: Error) => {
        if (this.failure === null) this.failure = e;
        if (!started) failed(e);
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      };
      w.on("message", (r: WorkerReply) => {
        if (r.type === "ready") {
          started = true;
          ready(r.prune);
        } else if (r.type === "block") {
          this.queued[index]!--;
          const p = this.pending.get(r.id);
          this.pending.delete(r.id);
          p?.resolve(r);
        } else if (r.type === "times") this.timesWaiting.shift()?.(r.times);
        else fail(errorOf(r));
      });
      w.on("error", (e) => fail(e));
      w.on("exit", (code) => {
        if (code !== 0) fail(new Error(`a parse worker stopped (exit code ${code})`));
      });
    });
  }

  /** Parses a block on the least busy worker. */
  parse(cs: ConlluSentence[], retag: boolean, spans: number[][] | null): Promise<ParsedBlock> {
    if (this.failure !== null) return Promise.reject(this.failure);
    let k = 0;
    for (let i = 1; i < this.workers.length; i++) if (this.queued[i]! < this.queued[k]!) k = i;
    const id = this.nextId++;
    const done = new Promise<ParsedBlock>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.queued[k]!++;
    const msg: WorkerRequest = { type: "block", id, cs, retag, spans };
    this.workers[k]!.postMessage(msg);
    return done;
  }

  /** The stage times of every worker, summed (thread seconds, not wall time). */
  async times(): Promise<PipelineTimes | null> {
    const all = await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<PipelineTimes>((resolve) => {
            this.timesWaiting.push(resolve);
            const msg: WorkerRequest = { type: "times" };
            w.postMessage(msg);
          }),
      ),
    );
    const sum = all[0]!;
    for (const t of all.slice(1)) {
      sum.tag += t.tag;
      sum.morph += t.morph;
      sum.parse += t.parse;
      sum.label += t.label;
      t.cascade.passes.forEach((p, i) => {
        const q = sum.cascade.passes[i];
        if (q === undefined) sum.cascade.passes.push(p);
        else q.seconds += p.seconds;
      });
    }
    return sum;
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
