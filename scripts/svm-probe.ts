// Probe of the filter SVM on the real token-role problem (en_ewt train.jk after the rules):
// node dist/scripts/svm-probe.js RULES.vpf TRAIN.conllu DECISION[,…] VARIANT[,…] [C1:C2] [eps]
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { svmPrimalObjective, trainLinearSvm } from "../src/learn/linear-svm.js";
import { type SvmTask, trainLinearSvms } from "../src/learn/multi-svm.js";
import { loadCascade } from "../src/prune/load-pruner.js";
import { TagMap } from "../src/prune/tag-map.js";
import { ROLE_NAMES } from "../src/prune/token-role-decisions.js";
import { TokenRoleFeatures } from "../src/prune/token-role-features.js";
import { tokenRoleExamples } from "../src/prune/train-token-roles.js";

const [rulesPath, trainPath, decArg, variantArg, costArg, epsArg] = process.argv.slice(2);
const vocab = new Vocabularies();
const train = loadCorpus(trainPath!, vocab).sentences;
const prefix = loadCascade(rulesPath!);
const column = TagMap.chooseColumn(train, vocab);
const tagMap = new TagMap(TagMap.collect(train, vocab, column), column);
const bits = 18;
const fx = new TokenRoleFeatures(tagMap, bits);
const { x, decRows, decLabels } = tokenRoleExamples(train, vocab, prefix, fx);
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
