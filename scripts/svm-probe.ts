// Probe of the filter SVM on the real token-role problem (en_ewt train.jk after the rules):
// node dist/scripts/svm-probe.js RULES.vpf TRAIN.conllu DECISION[,…] VARIANT[,…] [C1:C2] [eps]
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { svmPrimalObjective, trainLinearSvm } from "../src/learn/linear-svm.js";
import { type SvmTask, trainLinearSvms } from "../src/learn/multi-svm.js";
import { loadCascade } from "../src/prune/load-pruner.js";
import { SparseRowsBuilder } from "../src/prune/sparse-rows.js";
import { TagMap } from "../src/prune/tag-map.js";
import { NUM_ROLES, ROLE_NAMES, roleActive, roleLabels } from "../src/prune/token-role-decisions.js";
import { MAX_TOKEN_FEATURES, TokenRoleFeatures } from "../src/prune/token-role-features.js";

const [rulesPath, trainPath, decArg, variantArg, costArg, epsArg] = process.argv.slice(2);
const vocab = new Vocabularies();
const train = loadCorpus(trainPath!, vocab).sentences;
const prefix = loadCascade(rulesPath!);
const column = TagMap.chooseColumn(train, vocab);
const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);
const bits = 18;
const fx = new TokenRoleFeatures(tagMap, bits);
const rowsB = new SparseRowsBuilder();
const decRows: number[][] = ROLE_NAMES.map(() => []);
const decLabels: number[][] = ROLE_NAMES.map(() => []);
const buf = new Int32Array(MAX_TOKEN_FEATURES);
let labels = new Uint8Array(0);
let deps = new Int32Array(0);
for (const s of train) {
  const n = s.n;
  if (labels.length < (n + 1) * NUM_ROLES) {
    labels = new Uint8Array((n + 1) * NUM_ROLES * 2);
    deps = new Int32Array((n + 1) * 2);
  }
  const mask = prefix.prune(s, vocab);
  fx.prepare(prefix.prepare(s, vocab));
  roleLabels(s.head, n, deps, labels);
  for (let i = 1; i <= n; i++) {
    const row = rowsB.add(buf, null, fx.extract(i, buf));
    for (let d = 0; d < NUM_ROLES; d++) {
      if (!roleActive(mask, d, i)) continue;
      decRows[d]!.push(row);
      decLabels[d]!.push(labels[i * NUM_ROLES + d] === 1 ? 1 : -1);
    }
  }
}
const x = rowsB.build();
console.log(`${x.rows} rows, ${x.index.length} entries`);
const costs = (costArg ?? "0.1:1").split(",").map((c) => c.split(":").map(Number) as [number, number]);
const eps = Number(epsArg ?? "0.5");
const tasks: SvmTask[] = [];
const names: string[] = [];
for (const [c1, c2] of costs)
  for (const dn of decArg!.split(",")) {
    const d = (ROLE_NAMES as readonly string[]).indexOf(dn);
    const rows = Int32Array.from(decRows[d]!);
    const y = Int8Array.from(decLabels[d]!);
    const cost = new Float64Array(rows.length);
    for (let k = 0; k < cost.length; k++) cost[k] = y[k] === 1 ? c1 : c2;
    tasks.push({ rows, labels: y, cost });
    names.push(`${dn}@${c1}:${c2}`);
  }
for (const variant of variantArg!.split(";")) {
  const [mode, json] = variant.split("=");
  const o = { eps, ...(JSON.parse(json ?? "{}") as object) };
  const t0 = performance.now();
  const u0 = process.cpuUsage();
  const res =
    mode === "multi"
      ? trainLinearSvms(x, tasks, 1 << bits, o)
      : tasks.map((t) => trainLinearSvm(x, t.rows, t.labels, t.cost, 1 << bits, o));
  const sec = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(u0).user / 1e6;
  const objs = res.map((r, t) =>
    svmPrimalObjective(x, tasks[t]!.rows, tasks[t]!.labels, tasks[t]!.cost, r.w).toFixed(2),
  );
  console.log(
    `${variant}: ${sec.toFixed(2)} s (cpu ${cpu.toFixed(2)} s); passes ${res.map((r) => r.iterations + (r.converged ? "" : "*")).join(" ")}; primal ${objs.join(" ")}`,
  );
}
