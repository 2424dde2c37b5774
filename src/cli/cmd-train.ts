import { loadCorpus } from "../corpus/load.js";
import { checkParserTrainingData } from "../corpus/training-data.js";
import { Vocabularies } from "../corpus/vocab.js";
import { VineparseError } from "../errors.js";
import { round } from "../eval/percent.js";
import {
  defaultHigherOrderBits,
  type HigherOrderEpochReport,
  trainHigherOrderParser,
} from "../parser/higher-order-train.js";
import { loadParser } from "../parser/load-parser.js";
import { Parser } from "../parser/parser.js";
import { type EpochReport, trainParser } from "../parser/train.js";
import { PruningCascade } from "../prune/cascade.js";
import { loadCascade } from "../prune/load-pruner.js";
import type { ArcPruner } from "../prune/pruner.js";
import { tuneCascadeAlphas } from "../prune/tune-alphas.js";
import type { DependencyParser } from "../parser/types.js";
import { parsePruneSpec } from "../prune/spec.js";
import {
  CASCADE_BITS,
  type CascadePassReport,
  trainVineCascade,
  type VineCascadeResult,
} from "../prune/train-spc.js";
import { MAX_TRANSITION_BITS } from "../transition/parser.js";
import { trainTransitionParser } from "../transition/train.js";
import { checkWritable } from "../util/atomic-write.js";
import { choiceOption, numberOption, parseCommandArgs, requireOption, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse train --train T.conllu [--dev D.conllu] --out MODEL [options]

Trains a graph-based dependency parser (arc scores from McDonald et al. 2005 features) and a
relation labeller on a CoNLL-U treebank, using the UPOS/XPOS tags in the file (gold, or
jack-knifed from 'vineparse tag --jackknife'). With --dev, every epoch is evaluated on it and the
best epoch (UAS without punctuation) is kept.

--order 2 adds sibling parts (McDonald & Pereira 2006), --order 3 grandparent and grand-sibling
parts (Koo & Collins 2010, Model 1); both decode projectively. They first train a first-order model
(or take --first-order MODEL), which labels the arcs and prunes each token to its --k best heads;
it is stored inside the higher-order model.

--prune sets the pruning cascade the parser is trained and evaluated with, and stores it in the model
as its default cascade (vineparse parse --prune replaces it for a run): filter or cascade files
(vineparse filter train), applied in order, and for orders 2/3 optionally topk[:K] last (each token's
K best heads by the first-order model, which is trained on the filters' masks). Without --prune, orders
2/3 use topk:--k and order 1 prunes nothing; --prune none trains exhaustively.

--prune vine trains the vine-pruning cascade of Rush & Petrov (2012) first and stores it in the
model: a vine pass (band --vine-band, chosen on dev among the values given), then for --order 2 a
first-order and for --order 3 also a second-order max-marginal pass (unless --second-order-pass
no), each trained as a structured
prediction cascade on what the passes before it leave, with alpha chosen on --dev so that the pass
loses at most --cascade-loss of the dev gold arcs; the final model trains on the cascade's masks.
--prune FILTER[,FILTER…],vine puts arc filters in front: the cascade's passes train on what the
filters leave, and with --vine-pass no the filters take the vine pass's place.

--parser transition trains a greedy transition-based parser instead (arc-standard, labelled
transitions, an averaged perceptron over Zhang & Nivre 2011-style features; non-projective training
trees are projectivized by lifting, or left out with --nonprojective skip): the project's baseline.
It takes --train, --dev, --out, --epochs, --seed, --bits (log2 of the weight rows, default 18),
--skip-invalid and --quiet; a model of it parses with 'vineparse parse --model' as any other.

options:
  --parser graph|transition  graph-based (default) or transition-based parser
  --nonprojective lift|skip  --parser transition: non-projective training trees are projectivized
                      (default) or skipped
  --train FILE        training treebank (CoNLL-U)
  --dev FILE          development treebank for per-epoch evaluation and model selection
  --out FILE          where to write the model (written atomically)
  --order N           factorization order: 1 (default), 2 (siblings) or 3 (grand-siblings)
  --decoder NAME      eisner (projective, default) or mst (Chu-Liu-Edmonds, non-projective); order 1
  --k K               orders 2/3: heads kept per token by the first-order pruner (default 10; 0 = no
                      pruning, O(n^3) / O(n^4) decoding)
  --rank R            orders 2/3: rank a token's heads by max-marginal (best tree through the arc,
                      default) or by arc score
  --margin X          orders 2/3: also prune heads scoring more than X below a token's best head
  --gold-pruned P     orders 2/3, gold arcs the pruner removed: update (still update toward gold,
                      default), skip (skip the sentence) or restore (put the gold arcs back)
  --prune SPEC        pruning cascade: none, or FILTER[,FILTER…][,topk[:K]] (see above)
  --vine-band B[,B…]  --prune vine: candidate bands of the vine pass (default 3)
  --cascade-epochs N  --prune vine: epochs of each cascade pass (default 5)
  --cascade-loss X[,X…]  --prune vine: largest share of dev gold arcs each pass may lose, in pass
                      order (default 0.002,0.003,0.003)
  --cascade-alpha A   --prune vine: alpha of the training loss (default 0.5)
  --cascade-bits N    --prune vine: log2 of every pass's weight table (default 20)
  --pass-features full|coarse  --prune vine with --order 2|3 or --vine-pass no: features of the
                      first-order max-marginal pass: the parser's (default) or a coarse subset with
                      about half the look-ups per arc (ten tag and word-tag pair templates,
                      in-between UPOS tags only)
  --vine-features full|coarse  --prune vine: features of the vine pass's short and root arcs: the
                      parser's (default) or the same coarse subset
  --vine-pass yes|no  --prune FILTER,…,vine: whether the cascade still starts with a vine pass
                      (default yes); without it a first-order max-marginal pass follows the
                      filters at every order
  --train-masks cascade|filters|none  --prune vine: the masks the parser is trained on: the whole
                      cascade's (default), the filters' in front of it (FILTER,…,vine), or, at
                      order 1, none (every arc); parsing runs the whole cascade either way
  --filter-folds F0,…,FN-1  with --prune FILTER,…: mask the training sentences of fold k (sentence
                      i is in fold i mod N) with Fk, the same filters trained without that fold
                      ('vineparse filter train --fold k/N'), so that the parser and the cascade's
                      passes learn from masks as sharp as the filters are on new text; dev and
                      parsing use the --prune filters
  --second-order-pass yes|no  --prune vine --order 3: whether a second-order (sibling) max-marginal
                      pass follows the first-order one (default yes)
  --vine-head-outer yes|no  --prune vine: give the vine pass outer arcs at the heads' end of long
                      arcs too, so that a long arc survives only if both of its ends' do (default yes)
  --tune-alpha T|no   --prune vine with --dev: after training, set each pass's test-time alpha on
                      dev as 'vineparse filter tune --tolerance T' does (default no)
  --first-order FILE  orders 2/3: use this trained order-1 model to prune and label (else one is
                      trained first with the same options)
  --first-order-epochs N  orders 2/3: epochs of that first-order model (default: --epochs)
  --first-order-bits N    orders 2/3: log2 of that first-order model's weight table (default 23;
                      a smaller table prunes faster, since more of it stays in cache)
  --algorithm NAME    mira (1-best MIRA, default) or perceptron (averaged)
  --epochs N          passes over the training data (default 10)
  --C X               MIRA step cap (default 0.1)
  --seed N            shuffling seed (default 1)
  --bits N            log2 of the hashed weight table (default 23 for orders 1 and 2, 24 for order 3;
                      --parser transition: of its rows, one weight per transition each, default 18)
  --part-bits N|all   orders 2/3: log2 of the region at the start of that table which the sibling,
                      grandparent and grand-sibling features hash into (default all: the whole table)
  --skip-invalid      skip malformed sentences with a warning instead of stopping
  --quiet             no progress output
  -h, --help          show this help
`;

/** `vineparse train`: trains a parser model. */
export const command: Command = {
  summary:
    "train a parser (order 1: Eisner or MST; orders 2/3: pruned sibling / grand-sibling; or transition-based) on a CoNLL-U treebank",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("train", args, {
      train: { type: "string" },
      dev: { type: "string" },
      out: { type: "string" },
      parser: { type: "string" },
      nonprojective: { type: "string" },
      order: { type: "string" },
      decoder: { type: "string" },
      algorithm: { type: "string" },
      epochs: { type: "string" },
      C: { type: "string" },
      seed: { type: "string" },
      bits: { type: "string" },
      k: { type: "string" },
      margin: { type: "string" },
      rank: { type: "string" },
      "gold-pruned": { type: "string" },
      prune: { type: "string" },
      "vine-band": { type: "string" },
      "vine-pass": { type: "string" },
      "second-order-pass": { type: "string" },
      "train-masks": { type: "string" },
      "filter-folds": { type: "string" },
      "vine-head-outer": { type: "string" },
      "tune-alpha": { type: "string" },
      "cascade-epochs": { type: "string" },
      "cascade-loss": { type: "string" },
      "cascade-alpha": { type: "string" },
      "cascade-bits": { type: "string" },
      "pass-features": { type: "string" },
      "vine-features": { type: "string" },
      "first-order": { type: "string" },
      "first-order-epochs": { type: "string" },
      "first-order-bits": { type: "string" },
      "part-bits": { type: "string" },
      "skip-invalid": { type: "boolean" },
      quiet: { type: "boolean" },
    });
    const trainPath = requireOption("train", "train", values.train);
    const out = requireOption("train", "out", values.out);
    checkWritable(out);
    const kind = choiceOption("train", "parser", values.parser, ["graph", "transition"] as const, "graph");
    if (kind === "transition") return trainTransition(values, trainPath, out);
    if (values.nonprojective !== undefined)
      throw new UsageError("train: --nonprojective goes with --parser transition");
    const order = numberOption("train", "order", values.order, 1, { integer: true, min: 1, max: 3 });
    // The value of option `name`, one of `choices` (`fallback` when absent).
    const choice = <C extends string>(name: string, choices: readonly C[], fallback: C): C =>
      choiceOption(
        "train",
        name,
        values[name as keyof typeof values] as string | undefined,
        choices,
        fallback,
      );
    const decoder = choice("decoder", ["eisner", "mst"] as const, "eisner");
    const algorithm = choice("algorithm", ["mira", "perceptron"] as const, "mira");
    const epochs = numberOption("train", "epochs", values.epochs, 10, { integer: true, min: 1 });
    const C = numberOption("train", "C", values.C, 0.1, { min: 0 });
    const seed = numberOption("train", "seed", values.seed, 1, { integer: true });
    const bits = numberOption(
      "train",
      "bits",
      values.bits,
      order === 1 ? 23 : defaultHigherOrderBits(order === 2 ? 2 : 3),
      {
        integer: true,
        min: 10,
        max: 28,
      },
    );
    let k = numberOption("train", "k", values.k, 10, { integer: true, min: 0 });
    let prefix = new PruningCascade();
    let vine = false;
    if (values.prune !== undefined) {
      const passes: ArcPruner[] = [];
      const items = parsePruneSpec(values.prune);
      if (items.some((i) => i.type === "vine")) {
        if (items[items.length - 1]!.type !== "vine" || items.slice(0, -1).some((i) => i.type !== "file"))
          throw new UsageError(
            "train: --prune vine comes last, after filter files only (FILTER[,FILTER…],vine)",
          );
        vine = true;
        k = 0;
      }
      if (values.k === undefined || items.some((i) => i.type === "none")) k = 0;
      items.forEach((item, i) => {
        if (item.type === "default")
          throw new UsageError("train: --prune default means a model's own cascade; a new model has none");
        if (item.type === "topk") {
          if (order === 1)
            throw new UsageError(
              "train: --prune topk needs --order 2 or 3 (a first-order model ranks the heads)",
            );
          if (i !== items.length - 1) throw new UsageError("train: --prune topk must be the last pass");
          if (item.above > 0)
            throw new UsageError("train: --prune topk:K:A is a parse-time guard; train with topk[:K]");
          k = item.k;
        } else if (item.type === "file") passes.push(...loadCascade(item.path).passes);
      });
      prefix = new PruningCascade(passes);
    }
    // --filter-folds: fold k of the training sentences (i mod N = k) masked by the k-th file.
    const folds =
      values["filter-folds"] === undefined
        ? null
        : values["filter-folds"]
            .split(",")
            .map((f) => f.trim())
            .filter((f) => f !== "")
            .map((f) => loadCascade(f));
    if (folds !== null) {
      if (prefix.empty)
        throw new UsageError("train: --filter-folds needs the filters themselves in --prune (FILTER,…)");
      if (folds.length < 2)
        throw new UsageError("train: --filter-folds needs one file per fold, two or more");
      if (k > 0) throw new UsageError("train: --filter-folds needs no top-k pass (--k 0)");
    }
    // The cascade's yes/no switches (default yes), each valid only with the options it names.
    const yesNo = (
      name: "vine-pass" | "second-order-pass" | "vine-head-outer",
      valid: boolean,
      needs: string,
    ): boolean => {
      const v = choice(name, ["yes", "no"] as const, "yes");
      if (values[name] !== undefined && !valid) throw new UsageError(`train: --${name} goes with ${needs}`);
      return v === "yes";
    };
    const vinePass = yesNo("vine-pass", vine, "--prune FILTER[,FILTER…],vine");
    const secondOrderPass = yesNo("second-order-pass", vine && order === 3, "--prune vine and --order 3");
    const headOuter = yesNo("vine-head-outer", vine, "--prune vine");
    const passFeatures = choice("pass-features", ["full", "coarse"] as const, "full");
    if (values["pass-features"] !== undefined && !(vine && (order >= 2 || !vinePass)))
      throw new UsageError(
        "train: --pass-features goes with --prune vine and --order 2 or 3, or --vine-pass no",
      );
    const vineFeatures = choice("vine-features", ["full", "coarse"] as const, "full");
    if (values["vine-features"] !== undefined && !(vine && vinePass))
      throw new UsageError("train: --vine-features goes with --prune vine and a vine pass");
    // --tune-alpha T: after training, set each pass's test-time α on dev (`vineparse filter tune`).
    const tuneAlpha =
      values["tune-alpha"] === undefined || values["tune-alpha"] === "no"
        ? null
        : numberOption("train", "tune-alpha", values["tune-alpha"], 0, { min: 0 });
    if (tuneAlpha !== null && (!vine || values.dev === undefined))
      throw new UsageError("train: --tune-alpha goes with --prune vine and --dev");
    // The masks the parser trains on (the cascade's passes are trained on their own masks either way).
    const trainMasks = choice("train-masks", ["cascade", "filters", "none"] as const, "cascade");
    if (values["train-masks"] !== undefined && !vine)
      throw new UsageError("train: --train-masks goes with --prune vine");
    if (trainMasks === "none" && order !== 1)
      throw new UsageError("train: --train-masks none needs --order 1 (orders 2 and 3 train behind filters)");
    if (trainMasks === "filters" && prefix.empty)
      throw new UsageError("train: --train-masks filters needs filters in front (--prune FILTER,…,vine)");
    if (!vinePass && prefix.empty)
      throw new UsageError("train: --vine-pass no needs filters in front (--prune FILTER,vine)");
    const margin =
      values.margin === undefined ? null : numberOption("train", "margin", values.margin, 0, { min: 0 });
    const rank = choice("rank", ["max-marginal", "score"] as const, "max-marginal");
    const goldPruned = choice("gold-pruned", ["update", "skip", "restore"] as const, "update");
    const firstOrderEpochs = numberOption(
      "train",
      "first-order-epochs",
      values["first-order-epochs"],
      epochs,
      {
        integer: true,
        min: 1,
      },
    );
    const firstOrderBits = numberOption("train", "first-order-bits", values["first-order-bits"], 23, {
      integer: true,
      min: 10,
      max: 28,
    });
    const partBits =
      values["part-bits"] === undefined || values["part-bits"] === "all"
        ? undefined
        : numberOption("train", "part-bits", values["part-bits"], bits, {
            integer: true,
            min: 10,
            max: bits,
          });
    const { log, vocab, train, dev } = trainingData(values, trainPath, values.dev);
    const foldMasks = folds === null ? null : train.map((s, i) => folds[i % folds.length]!.maskFor(s, vocab));
    if (folds !== null)
      log(`training masks: each of ${folds.length} folds masked by filters trained without it`);
    log(
      `train: ${train.length} sentences${dev ? `, dev: ${dev.length} sentences` : ""}; ${order === 1 ? `${decoder} decoder` : `order ${order}`}; pruning: ${vine ? `${prefix.empty ? "" : `${prefix.name} + `}vine cascade (trained first)` : prefix.empty && k === 0 ? "none" : [...prefix.passes.map((p) => p.kind), ...(order > 1 && k > 0 ? [`top-${k}`] : [])].join(" + ")}; ${algorithm}`,
    );
    const t0 = Date.now();
    let cascadeResult: VineCascadeResult | null = null;
    // The filters given in front of the vine cascade (empty without them).
    let filters = new PruningCascade();
    if (vine) {
      const list = (name: string, v: string | undefined, dflt: string, int: boolean): number[] =>
        (v ?? dflt)
          .split(",")
          .map((x) => numberOption("train", name, x.trim(), 0, int ? { integer: true, min: 1 } : { min: 0 }));
      if (dev === undefined) log("warning: --prune vine without --dev: alpha is chosen on the training data");
      cascadeResult = trainVineCascade(train, dev ?? null, vocab, {
        order: order as 1 | 2 | 3,
        prefix,
        ...(foldMasks === null ? {} : { prefixTrainMasks: foldMasks }),
        vinePass,
        secondOrderPass,
        passFeatures,
        vineFeatures,
        headOuter,
        bands: list("vine-band", values["vine-band"], "3", true),
        maxLoss: list("cascade-loss", values["cascade-loss"], "0.002,0.003,0.003", false),
        spc: {
          epochs: numberOption("train", "cascade-epochs", values["cascade-epochs"], 5, {
            integer: true,
            min: 1,
          }),
          trainAlpha: numberOption("train", "cascade-alpha", values["cascade-alpha"], 0.5, {
            min: -1,
            max: 1,
          }),
          seed,
          ...(values["cascade-bits"] === undefined
            ? {}
            : {
                bits: numberOption("train", "cascade-bits", values["cascade-bits"], CASCADE_BITS, {
                  integer: true,
                  min: 10,
                  max: 26,
                }),
              }),
        },
        log,
      });
      filters = prefix;
      prefix = cascadeResult.cascade;
      log(cascadeSummary(cascadeResult.passes));
      if (trainMasks !== "cascade")
        log(
          `the parser trains on ${trainMasks === "none" ? "every arc" : "the filters' masks"}; parsing runs the whole cascade`,
        );
    }
    const devText = (r: EpochReport) =>
      r.dev === null ? "" : `  dev UAS ${round(r.dev.uasNoPunct)} LAS ${round(r.dev.lasNoPunct)}`;
    const onFirstOrderEpoch = (r: EpochReport) => {
      log(
        `${order === 1 ? "" : "first-order "}epoch ${r.epoch}/${order === 1 ? epochs : firstOrderEpochs}  ${r.seconds.toFixed(1)} s  ${Math.round(r.sentencesPerSecond)} sent/s  train UAS ${round(r.trainUas)}${devText(r)}`,
      );
    };
    let parser: DependencyParser & { save(path: string): void };
    let bestEpoch: number;
    if (order === 1) {
      ({ parser, bestEpoch } = trainParser(train, vocab, {
        decoder,
        algorithm,
        epochs,
        C,
        seed,
        bits,
        dev,
        cascade: prefix,
        masks:
          trainMasks === "none"
            ? train.map(() => null)
            : trainMasks === "filters"
              ? (foldMasks ?? filters.masksFor(train, vocab))
              : (cascadeResult?.trainMasks ?? foldMasks ?? undefined),
        onEpoch: onFirstOrderEpoch,
      }));
    } else {
      let firstOrder: Parser | undefined;
      if (values["first-order"] !== undefined) {
        const fo = loadParser(values["first-order"]);
        if (!(fo instanceof Parser))
          throw new VineparseError(
            "model-kind",
            "--first-order needs an order-1 model",
            values["first-order"],
          );
        firstOrder = fo;
      }
      const r = trainHigherOrderParser(train, vocab, {
        order: order as 2 | 3,
        algorithm,
        epochs,
        C,
        seed,
        bits,
        partBits,
        k,
        prefix,
        ...(foldMasks !== null
          ? {
              trainMasks:
                trainMasks === "filters" || cascadeResult === null ? foldMasks : cascadeResult.trainMasks,
            }
          : trainMasks === "filters"
            ? { trainPrefix: filters }
            : {}),
        margin,
        rank,
        goldPruned,
        firstOrder,
        firstOrderEpochs,
        firstOrderBits,
        dev,
        onFirstOrderEpoch,
        onEpoch: (e: HigherOrderEpochReport) => {
          log(
            `order-${order} epoch ${e.epoch}/${epochs}  ${e.seconds.toFixed(1)} s  ${Math.round(e.sentencesPerSecond)} sent/s  train UAS ${round(e.trainUas)}${devText(e)}${e.skipped > 0 ? `  skipped ${e.skipped}` : ""}`,
          );
        },
      });
      if (r.trainPruning !== null) {
        log(
          `pruning on train: coverage ${round(r.trainPruning.coverage)}%, ${r.trainPruning.headsPerToken.toFixed(2)} heads/token (${r.pruneSeconds.toFixed(1)} s)`,
        );
      }
      ({ parser, bestEpoch } = r);
    }
    if (tuneAlpha !== null) {
      const r = tuneCascadeAlphas(parser, parser.cascade, dev!, vocab, { tolerance: tuneAlpha, log });
      log(
        `alpha tuned on dev: ${r.passes.map((p) => `${p.kind} ${p.before} → ${p.after}`).join(", ")}; dev UAS-P ${round(r.before)} → ${round(r.after)}`,
      );
    }
    parser.save(out);
    log(
      `kept epoch ${bestEpoch}; trained in ${((Date.now() - t0) / 1000).toFixed(1)} s; model written to ${out}`,
    );
    return 0;
  },
};

/** The options `--parser transition` takes (any other is refused rather than ignored). */
const TRANSITION_OPTIONS = new Set([
  "train",
  "dev",
  "out",
  "parser",
  "nonprojective",
  "epochs",
  "seed",
  "bits",
  "skip-invalid",
  "quiet",
]);

/**
 * The training and dev treebanks of `vineparse train` (one vocabulary), checked, with the read
 * options (`--skip-invalid`) and the progress log (`--quiet`) of both kinds of parser.
 */
function trainingData(
  values: { quiet?: string | boolean; "skip-invalid"?: string | boolean },
  trainPath: string,
  devPath: string | undefined,
) {
  const quiet = values.quiet === true;
  const log = (s: string) => {
    if (!quiet) process.stderr.write(s + "\n");
  };
  const readOpts = {
    onInvalid: values["skip-invalid"] === true ? ("skip" as const) : ("abort" as const),
    onWarning: (e: Error) => process.stderr.write(`warning: skipped sentence: ${e.message}\n`),
  };
  const vocab = new Vocabularies();
  const train = loadCorpus(trainPath, vocab, readOpts).sentences;
  checkParserTrainingData(train, vocab, trainPath);
  const dev = devPath === undefined ? undefined : loadCorpus(devPath, vocab, readOpts).sentences;
  return { log, vocab, train, dev };
}

/** `vineparse train --parser transition`: a greedy arc-standard parser (src/transition). */
function trainTransition(
  values: Record<string, string | boolean | undefined>,
  trainPath: string,
  out: string,
): number {
  for (const [k, v] of Object.entries(values))
    if (v !== undefined && !TRANSITION_OPTIONS.has(k))
      throw new UsageError(`train: --${k} does not go with --parser transition`);
  const str = (k: string) => values[k] as string | undefined;
  const epochs = numberOption("train", "epochs", str("epochs"), 10, { integer: true, min: 1 });
  const seed = numberOption("train", "seed", str("seed"), 1, { integer: true });
  const bits = numberOption("train", "bits", str("bits"), 18, {
    integer: true,
    min: 10,
    max: MAX_TRANSITION_BITS,
  });
  const nonProjective = choiceOption(
    "train",
    "nonprojective",
    str("nonprojective"),
    ["lift", "skip"] as const,
    "lift",
  );
  const { log, vocab, train, dev } = trainingData(values, trainPath, str("dev"));
  log(
    `train: ${train.length} sentences${dev ? `, dev: ${dev.length} sentences` : ""}; transition-based (arc-standard, greedy, averaged perceptron); non-projective trees: ${nonProjective}`,
  );
  const t0 = Date.now();
  const r = trainTransitionParser(train, vocab, {
    epochs,
    seed,
    bits,
    nonProjective,
    ...(dev === undefined ? {} : { dev }),
    onEpoch: (e) =>
      log(
        `epoch ${e.epoch}/${epochs}  ${e.seconds.toFixed(1)} s  ${Math.round(e.sentencesPerSecond)} sent/s  train transitions ${round(e.trainAccuracy)}%${e.dev === null ? "" : `  dev UAS ${round(e.dev.uasNoPunct)} LAS ${round(e.dev.lasNoPunct)}`}`,
      ),
  });
  log(
    `${r.nonProjectiveSentences} non-projective training trees ${nonProjective === "lift" ? `projectivized (${r.liftedArcs} arcs lifted)` : "skipped"}`,
  );
  r.parser.save(out);
  log(
    `kept epoch ${r.bestEpoch}; trained in ${((Date.now() - t0) / 1000).toFixed(1)} s; model written to ${out}`,
  );
  return 0;
}

/** One line per cascade pass: α and the gold arcs it lost on train and dev. */
function cascadeSummary(passes: readonly CascadePassReport[]): string {
  return passes
    .map((p) => {
      const lost = (t: { goldBefore: number; goldAfter: number; gold: number }) =>
        `${t.goldBefore - t.goldAfter} of ${t.gold} gold arcs lost`;
      const kept = (t: { keptAfter: number; arcs: number }) =>
        `${round((100 * t.keptAfter) / t.arcs)}% of arcs kept`;
      return `cascade pass ${p.name}${Number.isNaN(p.alpha) ? "" : ` (alpha ${p.alpha})`}: train ${lost(p.train)}, ${kept(p.train)}${p.dev === null ? "" : `; dev ${lost(p.dev)}, ${kept(p.dev)}`}`;
    })
    .join("\n");
}
