// Worker thread of `jackknifeParallel`: trains and applies the taggers of the folds it is given.
import { parentPort, workerData } from "node:worker_threads";
import { WordVectors } from "../vectors/word-vectors.js";
import { type JackknifeWorkerData, runJackknifeWorker } from "./jackknife.js";

const data = workerData as JackknifeWorkerData;
const v = data.vectors;
const vectors = v === null ? null : new WordVectors(v.words, v.dim, v.data, v.scale);
runJackknifeWorker(data, vectors, (r) => parentPort!.postMessage(r));
