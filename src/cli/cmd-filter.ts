import { loadCorpus } from "../corpus/load.js";
import type { Sentence } from "../corpus/sentence.js";
import { Vocabularies } from "../corpus/vocab.js";
import { pairedBootstrap } from "../eval/bootstrap.js";
import { filterImpact } from "../eval/filter-impact.js";
import { percent, round } from "../eval/percent.js";
import { formatTable } from "../eval/table.js";
import { readModelFile, writeModelFile } from "../model/model-file.js";
import { checkWritable } from "../util/atomic-write.js";
import { parserFromModel } from "../parser/load-parser.js";
import type { DependencyParser } from "../parser/types.js";
import { BUNDLE_KIND, bundleFromModelData, writeBundle } from "../pipeline/bundle.js";
import { loadPipeline } from "../pipeline/default-model.js";
import { evaluateParser } from "../parser/evaluate.js";
import { PruningCascade } from "../prune/cascade.js";
import { evaluateCascade } from "../prune/evaluate-cascade.js";
import { cascadeModelData, loadCascade } from "../prune/load-pruner.js";
import { parsePruneSpec, resolvePruneSpec } from "../prune/spec.js";
import {
  ALPHA_REFERENCES,
  DEFAULT_ALPHA_GRID,
  DEFAULT_ALPHA_TOLERANCE,
  hasAlphaPass,
  tuneCascadeAlphas,
} from "../prune/tune-alphas.js";
import {
  choiceOption,
  foldOption,
  numberOption,
  type OptionTable,
  parseCommandArgs,
  requireOption,
  UsageError,
} from "./args.js";
import type { Command } from "./command.js";
import { FILTER_KINDS } from "./filter/kinds.js";

const usage = `usage: vineparse filter train --kind KIND --train T.conllu [--dev D.conllu] --out FILTER [options]
       vineparse filter eval  --filter SPEC --gold G.conllu [--model MODEL] [--parser MODEL] [--json]
       vineparse filter show  SPEC [--model MODEL]
       vineparse filter attach --model MODEL --prune SPEC --out OUT
       vineparse filter tune --model MODEL --dev D.conllu --out OUT [--tolerance T] [--reference R] [--grid A,…]

Arc filters remove implausible head→modifier arcs before a parser scores them (Bergsma & Cherry
2010, 2011; Rush & Petrov 2012). A filter file holds one pass or a cascade of passes; give filter
files to 'vineparse parse --prune' and 'vineparse train --prune'.

train   learns a filter of one kind from a treebank (train with jack-knifed tags; dev tagged by
        the tagger, for choosing operating points) and writes it atomically to --out.
eval    prunes a gold treebank (predicted tags, gold heads) and reports coverage (gold arcs kept),
        reduction (share of all n² arcs removed), the oracle bound and the time, after each pass,
        and which gold arcs were lost (how many, how many not punctuation, by relation). With
        --parser, also what the filter does to that parser: UAS-P of G parsed exhaustively and
        behind SPEC (SPEC replaces the model's own cascade), with a paired bootstrap interval of
        the difference over sentences, how many lost gold arcs the exhaustive parse had chosen,
        and how many words the filter fixes and breaks.
show    prints what a filter learned (rules, limits, operating points).
attach  writes a copy of a parser model or pipeline bundle whose own cascade (what 'parse' runs
        unless given --prune) is SPEC: e.g. a filter file, "FILTER,default" to put a filter in
        front of the model's cascade, or none.
tune    writes a copy of a parser model or bundle whose vine and max-marginal passes have their
        test-time alpha set on D: pass by pass, alpha climbs the grid from the pass's own (a higher
        threshold t_alpha: more arcs removed, a faster parse) while the model's dev UAS-P stays at
        least what it is with the cascade as trained (--reference unpruned: what the same model
        gives without a cascade), minus the tolerance.

SPEC: filter / cascade files, comma-separated and applied in order; topk[:K], topk:K:A and default
(the model's own cascade) need --model.

train options:
  --kind KIND       ${FILTER_KINDS.map((k) => k.name).join(", ")}
  --train FILE      training treebank (CoNLL-U with tags and gold trees)
  --dev FILE        development treebank (tagged like the data the filter will see)
  --out FILE        where to write the filter
  --after SPEC      train after these passes (on what they leave); the output holds them too
  --fold K/N        train on every training sentence but those of fold K of N (sentence i is in
                    fold i mod N), for 'vineparse train --filter-folds'
  --skip-invalid    skip malformed sentences with a warning instead of stopping
  --quiet           no progress output
kinds:
${FILTER_KINDS.map((k) => `  ${k.name.padEnd(10)} ${k.summary}`).join("\n")}
kind options:
${FILTER_KINDS.map((k) => k.usage).join("\n")}

attach options:
  --model FILE      parser model or pipeline bundle
  --prune SPEC      its new cascade (as for 'vineparse parse --prune'; default = its current one)
  --out FILE        where to write the model (atomically; may be --model itself)

tune options:
  --model FILE      parser model or pipeline bundle with a vine or max-marginal cascade
  --dev FILE        development treebank, tagged as the parser will see it
  --out FILE        where to write the model (atomically; may be --model itself)
  --tolerance T     dev UAS-P points the tuned cascade may lose (default ${DEFAULT_ALPHA_TOLERANCE})
  --reference R     what it may lose them against: cascade (the model with its cascade as trained;
                    default) or unpruned (the same model without a cascade, the bar of Rush &
                    Petrov's comparison; a model trained on its cascade's masks can be far below)
  --grid A,…        candidate alphas (default ${DEFAULT_ALPHA_GRID.join(",")})
  --check           first a two-fold check: alpha chosen on the even dev sentences and applied to
                    the odd ones, and the other way round (UAS-P before and after)

eval / show options:
  --filter SPEC     the filter(s) to evaluate
  --gold FILE       CoNLL-U with the tags the filter should see and gold heads
  --model FILE      parser or bundle whose first-order model topk / default passes use
  --parser FILE     eval: parser or bundle to measure the filter's effect on (see eval above)
  --json            one JSON object: arcs, kept, coverage, reduction, oracleReduction, seconds,
                    passes, goldLost, goldLostNoPunct, lostByRelation, and parser with --parser
  -h, --help        show this help
`;

/** The parser of a model file (bundle or parser), for specs naming topk or default passes. */
function parserOf(model: string | undefined, spec: string): DependencyParser | null {
  const needs = parsePruneSpec(spec).some((i) => i.type === "topk" || i.type === "default");
  if (!needs) return null;
  if (model === undefined)
    throw new UsageError("filter: topk and default passes need --model (a parser or pipeline bundle)");
  return loadPipeline(model).parser;
}

/** The cascade a spec names (files only, or with a model's first-order weights). */
function cascadeOf(spec: string, model: string | undefined): PruningCascade {
  const parser = parserOf(model, spec);
  if (parser !== null) return resolvePruneSpec(spec, parser);
  const passes = parsePruneSpec(spec).flatMap((i) => (i.type === "file" ? loadCascade(i.path).passes : []));
  return new PruningCascade(passes);
}

async function train(args: string[]): Promise<number> {
  const at = args.indexOf("--kind");
  const kindName = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith("--kind="))?.slice(7);
  if (kindName === undefined)
    throw new UsageError(
      `filter train: missing --kind (one of ${FILTER_KINDS.map((k) => k.name).join(", ")})`,
    );
  const kind = FILTER_KINDS.find((k) => k.name === kindName);
  if (kind === undefined)
    throw new UsageError(
      `filter train: unknown --kind "${kindName}" (one of ${FILTER_KINDS.map((k) => k.name).join(", ")})`,
    );
  const common: OptionTable = {
    kind: { type: "string" },
    train: { type: "string" },
    dev: { type: "string" },
    out: { type: "string" },
    after: { type: "string" },
    fold: { type: "string" },
    "skip-invalid": { type: "boolean" },
    quiet: { type: "boolean" },
  };
  const { values } = parseCommandArgs("filter train", args, { ...common, ...kind.options });
  const v = values as Record<string, string | boolean | undefined>;
  const trainPath = requireOption("filter train", "train", v.train as string | undefined);
  const out = requireOption("filter train", "out", v.out as string | undefined);
  checkWritable(out);
  const quiet = v.quiet === true;
  const log = (s: string) => {
    if (!quiet) process.stderr.write(s + "\n");
  };
  const readOpts = {
    onInvalid: v["skip-invalid"] === true ? ("skip" as const) : ("abort" as const),
    onWarning: (e: Error) => process.stderr.write(`warning: skipped sentence: ${e.message}\n`),
  };
  const prefix = v.after === undefined ? new PruningCascade() : cascadeOf(v.after as string, undefined);
  const vocab = new Vocabularies();
  let trainSents = loadCorpus(trainPath, vocab, readOpts).sentences;
  if (v.fold !== undefined) {
    const { k, n } = foldOption("filter train", "fold", v.fold as string);
    trainSents = trainSents.filter((_, i) => i % n !== k);
    log(`fold ${k}/${n} left out: training on ${trainSents.length} sentences`);
  }
  const dev = v.dev === undefined ? undefined : loadCorpus(v.dev as string, vocab, readOpts).sentences;
  const own: Record<string, string | boolean | undefined> = {};
  for (const k of Object.keys(kind.options)) own[k] = v[k];
  const t0 = performance.now();
  const passes = kind.train({ train: trainSents, dev, vocab, values: own, prefix, log });
  const cascade = prefix.concat(passes);
  writeModelFile(out, cascadeModelData(cascade));
  log(`trained ${cascade.name} in ${((performance.now() - t0) / 1000).toFixed(1)} s; written to ${out}`);
  if (dev !== undefined) {
    const e = evaluateCascade(cascade, dev, vocab);
    log(
      `dev: coverage ${round(e.scores.coverage)}%, reduction ${round(e.scores.reduction)}% (oracle ${round(e.scores.oracleReduction)}%)`,
    );
  }
  return 0;
}

async function evaluate(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("filter eval", args, {
    filter: { type: "string" },
    gold: { type: "string" },
    model: { type: "string" },
    parser: { type: "string" },
    json: { type: "boolean" },
  });
  const spec = requireOption("filter eval", "filter", values.filter);
  const goldPath = requireOption("filter eval", "gold", values.gold);
  const cascade = cascadeOf(spec, values.model);
  // Loaded first, so that a bad --parser stops before the evaluation.
  const impactParser = values.parser === undefined ? null : loadPipeline(values.parser).parser;
  const vocab = new Vocabularies();
  const gold = loadCorpus(goldPath, vocab).sentences;
  const e = evaluateCascade(cascade, gold, vocab);
  const sc = e.scores;
  const passes = e.stats.passes.map((p, i) => ({
    kind: p.kind,
    seconds: Number(p.seconds.toFixed(4)),
    kept: p.kept,
    coverage: round(e.afterPass[i]!.coverage),
    reduction: round(e.afterPass[i]!.reduction),
  }));
  const lost = e.lost;
  const mostLost = lost.mostLost();
  const relationName = (id: number) => vocab.deprel.strings[id] ?? "_";
  const impact = impactParser === null ? null : parserImpact(impactParser, cascade, gold, vocab);
  if (values.json === true) {
    const o = {
      filter: cascade.name,
      sentences: sc.sentences,
      tokens: sc.tokens,
      arcs: sc.arcs,
      kept: sc.kept,
      coverage: round(sc.coverage),
      reduction: round(sc.reduction),
      oracleReduction: round(sc.oracleReduction),
      sentenceCoverage: round(sc.sentenceCoverage),
      headsPerToken: round(sc.headsPerToken),
      seconds: Number(e.seconds.toFixed(4)),
      tokensPerSecond: e.seconds > 0 ? Math.round(sc.tokens / e.seconds) : 0,
      passes,
      goldLost: lost.lost,
      goldLostNoPunct: lost.lostNoPunct,
      lostByRelation: Object.fromEntries(
        mostLost.map((r) => [relationName(r.relation), { gold: r.gold, lost: r.lost }]),
      ),
      ...(impact === null ? {} : { parser: impact }),
    };
    process.stdout.write(JSON.stringify(o) + "\n");
    return 0;
  }
  const rows = passes.map((p, i) => [i + 1, p.kind, p.coverage, p.reduction, p.kept, p.seconds]);
  process.stdout.write(
    formatTable(["pass", "kind", "coverage %", "reduction %", "arcs kept", "seconds"], rows),
  );
  process.stdout.write(
    `\n${sc.sentences} sentences, ${sc.tokens} tokens, ${sc.arcs} arcs: coverage ${round(sc.coverage)}%, reduction ${round(sc.reduction)}% (oracle ${round(sc.oracleReduction)}%), ${round(sc.headsPerToken)} heads/token, ${e.seconds.toFixed(3)} s\n`,
  );
  const top = mostLost
    .slice(0, 10)
    .map((r) => `${relationName(r.relation)} ${r.lost}/${r.gold}`)
    .join(", ");
  process.stdout.write(
    `gold arcs lost: ${lost.lost} (${lost.lostNoPunct} not punctuation)` +
      (top === "" ? "\n" : `; most by relation (lost/gold): ${top}\n`),
  );
  if (impact !== null)
    process.stdout.write(
      `parser ${values.parser} (punctuation excluded): UAS-P ${impact.uasNoPunct.toFixed(2)} exhaustive, ${impact.uasNoPunctFiltered.toFixed(2)} behind the filter ` +
        `(${impact.difference >= 0 ? "+" : ""}${impact.difference.toFixed(2)}; 95% paired bootstrap interval over sentences [${impact.low.toFixed(2)}, ${impact.high.toFixed(2)}]); ` +
        `${impact.lostParserRight} of the lost gold arcs were the exhaustive parse's choice; ${impact.fixed} words fixed, ${impact.broken} broken\n`,
    );
  return 0;
}

/** `filterImpact` of a parser behind `cascade`, as `filter eval --parser` prints and returns it in JSON. */
function parserImpact(
  parser: DependencyParser,
  cascade: PruningCascade,
  gold: Sentence[],
  vocab: Vocabularies,
) {
  const f = filterImpact(parser, cascade, gold, vocab, vocab.upos.get("PUNCT"));
  const d = pairedBootstrap(f.perSentence.filtered, f.perSentence.unfiltered, f.perSentence.total);
  const pct = (x: number) => round(percent(x, f.tokens));
  return {
    tokens: f.tokens,
    uasNoPunct: pct(f.rightUnfiltered),
    uasNoPunctFiltered: pct(f.rightFiltered),
    difference: Number(d.difference.toFixed(4)),
    low: Number(d.low.toFixed(4)),
    high: Number(d.high.toFixed(4)),
    lostParserRight: f.lostParserRight,
    fixed: f.fixed,
    broken: f.broken,
  };
}

async function show(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    "filter show",
    args,
    { model: { type: "string" }, filter: { type: "string" } },
    { max: 1, name: "FILTER" },
  );
  const spec = positionals[0] ?? values.filter;
  if (spec === undefined)
    throw new UsageError("filter show: give a filter file (see vineparse filter --help)");
  process.stdout.write(cascadeOf(spec, values.model).describe());
  return 0;
}

async function attach(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("filter attach", args, {
    model: { type: "string" },
    prune: { type: "string" },
    out: { type: "string" },
  });
  const model = requireOption("filter attach", "model", values.model);
  const spec = requireOption("filter attach", "prune", values.prune);
  const out = requireOption("filter attach", "out", values.out);
  checkWritable(out);
  const m = readModelFile(model);
  let c: PruningCascade;
  if (m.kind === BUNDLE_KIND) {
    const b = bundleFromModelData(m, model);
    c = b.parser.cascade = resolvePruneSpec(spec, b.parser);
    writeBundle(out, b);
  } else {
    const parser = parserFromModel(m, model);
    c = parser.cascade = resolvePruneSpec(spec, parser);
    writeModelFile(out, parser.toModelData());
  }
  process.stderr.write(`${out}: cascade ${c.empty ? "none" : c.name}\n`);
  return 0;
}

async function tune(args: string[]): Promise<number> {
  const { values } = parseCommandArgs("filter tune", args, {
    model: { type: "string" },
    dev: { type: "string" },
    out: { type: "string" },
    tolerance: { type: "string" },
    reference: { type: "string" },
    grid: { type: "string" },
    check: { type: "boolean" },
    quiet: { type: "boolean" },
  });
  const model = requireOption("filter tune", "model", values.model);
  const devPath = requireOption("filter tune", "dev", values.dev);
  const out = requireOption("filter tune", "out", values.out);
  const tolerance = numberOption("filter tune", "tolerance", values.tolerance, DEFAULT_ALPHA_TOLERANCE, {
    min: 0,
  });
  const reference = choiceOption("filter tune", "reference", values.reference, ALPHA_REFERENCES, "cascade");
  const grid =
    values.grid === undefined
      ? DEFAULT_ALPHA_GRID
      : values.grid
          .split(",")
          .map((a) => numberOption("filter tune", "grid", a.trim(), 0, { min: -1, max: 1 }));
  checkWritable(out);
  const log = (s: string) => {
    if (values.quiet !== true) process.stderr.write(s + "\n");
  };
  const m = readModelFile(model);
  const bundle = m.kind === BUNDLE_KIND ? bundleFromModelData(m, model) : null;
  const parser = bundle === null ? parserFromModel(m, model) : bundle.parser;
  /** Another copy of the model's parser (for the check, which must not touch the one written). */
  const copy = () => (bundle === null ? parserFromModel(m, model) : bundleFromModelData(m, model).parser);
  if (!hasAlphaPass(parser.cascade))
    throw new UsageError(`filter tune: ${model} has no vine or max-marginal pass to tune`);
  const vocab = new Vocabularies();
  const dev = loadCorpus(devPath, vocab).sentences;
  if (values.check === true) {
    // Two-fold check: the search run on one half of dev (split in halves again inside), its α
    // applied to the other half, against the cascade as trained there.
    const halves = [dev.filter((_, i) => i % 2 === 0), dev.filter((_, i) => i % 2 === 1)];
    for (let k = 0; k < 2; k++) {
      const p = copy();
      const other = halves[1 - k]!;
      const u0 = evaluateParser(p, other, vocab).uasNoPunct;
      const c = tuneCascadeAlphas(p, p.cascade, halves[k]!, vocab, { grid, tolerance, reference });
      const u1 = evaluateParser(p, other, vocab).uasNoPunct;
      log(
        `check: alpha chosen on the ${k === 0 ? "even" : "odd"} sentences (${c.passes.map((x) => x.after).join(" / ")}): the ${k === 0 ? "odd" : "even"} ones' UAS-P ${round(u0)} → ${round(u1)} (${u1 >= u0 ? "+" : ""}${(u1 - u0).toFixed(2)})`,
      );
    }
  }
  const r = tuneCascadeAlphas(parser, parser.cascade, dev, vocab, { grid, tolerance, reference, log });
  if (bundle === null) writeModelFile(out, parser.toModelData());
  else writeBundle(out, bundle);
  const moved = r.passes.map((p) => `pass ${p.pass + 1} (${p.kind}) ${p.before} → ${p.after}`).join(", ");
  const bar = reference === "unpruned" ? ` (without a cascade: ${round(r.reference)})` : "";
  log(`${out}: alpha ${moved}; dev UAS-P ${round(r.before)} → ${round(r.after)}${bar}`);
  return 0;
}

/** `vineparse filter`: train, evaluate, inspect arc filters and attach them to models. */
export const command: Command = {
  summary: "train, evaluate, inspect arc filters (pruning passes before parsing) and attach them to models",
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === "train") return train(rest);
    if (sub === "eval") return evaluate(rest);
    if (sub === "show") return show(rest);
    if (sub === "attach") return attach(rest);
    if (sub === "tune") return tune(rest);
    throw new UsageError(
      `filter: ${sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`} (train, eval, show, attach or tune; see vineparse filter --help)`,
    );
  },
};
