// Builds the bundled English model (models/en_ewt.vpm): a tagger trained on en_ewt train with tag
// guesses from word vectors (GloVe, see scripts/glove.ts), and a parser trained on en_ewt train three
// times over, always with jack-knifed tags: once from 10 folds of taggers like the bundled one, and
// twice from 2 folds of taggers trained for one epoch without vectors (about 92% UPOS), whose more
// frequent errors teach the parser to lean less on the tags. The parser is selected on dev with
// predicted tags.
//
// The default recipe (--order 3) is a pruning cascade: the arc filters of Bergsma & Cherry (2010)
// (rules at 99.95%, the linear stage at 99.8%, the quadratic filter with its arc network at 99.5% dev
// coverage; tables of 2^16 and 2^18 weights), then a first-order max-marginal pass trained as a
// structured prediction cascade (Rush & Petrov 2012; coarse features, 2^18 weights), then a
// third-order parser trained on the masks both leave, its sibling and grandparent parts in a 2^20
// region of its 2^23 table; last, the pass's α is set on dev as `vineparse filter tune
// --tolerance 0.2` does. The filters and the pass train on the 10-fold jack-knifed copy of train and
// are tuned on dev as tagged by the build's tagger.
//
// --order 2 gives the earlier recipe: a second-order parser trained with top-k pruning that parses
// behind the same filters (--filter rlq, its default), or behind a vine cascade (--prune vine).
// --order 3 takes --bits, --part-bits, --second-order-pass yes|no, --cascade-loss and --tune-alpha to
// vary the recipe, as `vineparse train` does, and --guard K:A|none for the last pass (below).
// Last, a lemmatizer and FEATS tagger (`vineparse morph train`; --morph no: none; --morph-bits), and
// for raw text a tokenizer and sentence splitter learned from train (`vineparse tokenizer train`;
// --tokenizer learned|sentences|rules: below).
// Deterministic given the seeds: `npm run build-model` twice gives byte-identical files.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readConlluFile } from "../src/conllu/read.js";
import { toSentence } from "../src/corpus/sentence.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { round } from "../src/eval/percent.js";
import { MorphModel, morphSentence } from "../src/morph/morph-model.js";
import { LearnedTokenizer } from "../src/tokenizer/learned-tokenizer.js";
import { treebankSpacing } from "../src/pipeline/token-eval.js";
import { trainHigherOrderParser } from "../src/parser/higher-order-train.js";
import { type EpochReport, trainParser } from "../src/parser/train.js";
import { writeBundle } from "../src/pipeline/bundle.js";
import { PruningCascade } from "../src/prune/cascade.js";
import { evaluateCascade } from "../src/prune/evaluate-cascade.js";
import { CASCADE_BITS, trainVineCascade } from "../src/prune/train-spc.js";
import { topKFor } from "../src/prune/spec.js";
import { tuneCascadeAlphas } from "../src/prune/tune-alphas.js";
import { FILTER_KINDS } from "../src/cli/filter/kinds.js";
import { jackknifeParallel } from "../src/tagger/jackknife.js";
import { taggedSentence } from "../src/tagger/tagged-sentence.js";
import { Tagger } from "../src/tagger/tagger.js";
import { VineparseError } from "../src/errors.js";
import { checkWritable } from "../src/util/atomic-write.js";
import { removeTempFilesOnSignals } from "../src/util/temp-files.js";
import { readWordVectors } from "../src/vectors/word-vectors.js";
import { GLOVE_PACKAGE, loadGlove } from "./glove.js";

const repo = resolve(import.meta.dirname, "..", "..");
const { values } = parseArgs({
  options: {
    ud: { type: "string" },
    tb: { type: "string" },
    out: { type: "string" },
    folds: { type: "string" },
    "parser-epochs": { type: "string" },
    "train-limit": { type: "string" },
    "second-copy": { type: "string" },
    "noisy-copies": { type: "string" },
    order: { type: "string" },
    vectors: { type: "string" },
    "first-order-bits": { type: "string" },
    prune: { type: "string" },
    "cascade-loss": { type: "string" },
    "vine-band": { type: "string" },
    k: { type: "string" },
    "test-alphas": { type: "string" },
    filter: { type: "string" },
    bits: { type: "string" },
    "part-bits": { type: "string" },
    "second-order-pass": { type: "string" },
    "tune-alpha": { type: "string" },
    guard: { type: "string" },
    "filter-bits": { type: "string" },
    "cascade-bits": { type: "string" },
    "pass-features": { type: "string" },
    morph: { type: "string" },
    "morph-bits": { type: "string" },
    tokenizer: { type: "string" },
    spacing: { type: "string" },
  },
});
const tb = values.tb ?? "en_ewt";
const ud = values.ud ?? process.env.VINEPARSE_UD ?? join(repo, "..", "shared", "data", "ud");
const out = values.out ?? join(repo, "models", `${tb}.vpm`);
const folds = Number(values.folds ?? 10);
const parserEpochs = Number(values["parser-epochs"] ?? 10);
// The lemmatizer and FEATS tagger (`vineparse morph train`, on train's gold tags, its epoch chosen on
// dev): "yes" (the default) or "no" for a bundle without one. --morph-bits: log2 of its tables, by
// default 18 for en_ewt and 20 (morph train's default) otherwise: on en_ewt dev 2^18 is as accurate
// (lemmas 97.09 against 97.10, UFeats 95.34 against 95.30 with predicted tags) in a quarter of the
// memory, on tr_imst and hu_szeged it lost 0.9 and 0.1 UFeats (docs/results.md, "Lemmas and FEATS in
// the bundle").
const withMorph = (values.morph ?? "yes") === "yes";
const morphBits = Number(values["morph-bits"] ?? (tb === "en_ewt" ? 18 : 20));
if (!Number.isInteger(morphBits) || morphBits < 10 || morphBits > 26)
  throw new Error("--morph-bits must be an integer from 10 to 26");
if (values.morph !== undefined && values.morph !== "yes" && values.morph !== "no")
  throw new Error("--morph must be yes or no");
// How the bundle cuts raw text into sentences and words: "learned" (`vineparse tokenizer train` on
// train), "sentences" (the same with the English rules' words: `--words rules`; the default for
// en_ewt, whose words the rules find better) or "rules" (no tokenizer in the bundle: the English
// rules for both). On en_ewt dev the learned splitter finds sentences better than the rules, the
// rules words; on the other treebanks the learned tokenizer is better at both (docs/results.md, "A
// tokenizer learned from the treebank").
const tokenizerKind = values.tokenizer ?? (tb === "en_ewt" ? "sentences" : "learned");
if (tokenizerKind !== "learned" && tokenizerKind !== "sentences" && tokenizerKind !== "rules")
  throw new Error("--tokenizer must be learned, sentences or rules");
// How train's raw text is spaced (`tokenizer train --spacing`): by default "none" for a language
// written without spaces (zh, ja), whose learned tokenizer then segments words, else "space".
const spacing = values.spacing ?? treebankSpacing(tb);
if (spacing !== "space" && spacing !== "none") throw new Error("--spacing must be space or none");
const limit = Number(values["train-limit"] ?? 0);
// The parser's further copies of train: "noisy" = tags from 2-fold jack-knifing with one-epoch taggers
// without vectors (--noisy-copies of them); "gold" = one copy with the gold tags (the recipe before
// 2026-11-22 14:30); "none" = no further copy.
const secondCopy = values["second-copy"] ?? "noisy";
// With "noisy": how many such copies (copy c is jack-knifed with shuffling seed c + 1).
const noisyCopies = Number(values["noisy-copies"] ?? 2);
if (secondCopy !== "noisy" && secondCopy !== "gold" && secondCopy !== "none")
  throw new Error("--second-copy must be noisy, gold or none");
if (!Number.isInteger(noisyCopies) || noisyCopies < 1)
  throw new Error("--noisy-copies must be an integer ≥ 1");
// The bundle's recipe (the defaults): a third-order parser behind the arc filters and a first-order
// max-marginal pass, its sibling and grandparent parts in a 2^20 region of a 2^23 table, the pass's α
// set on dev. --order 2 (or 1) gives the earlier recipes, whose defaults are those of before.
const order = Number(values.order ?? 3);
const third = order === 3;
// Order 2: log2 of the first-order (pruning) model's table; 2^20 prunes as well as 2^23 and faster.
const firstOrderBits = Number(values["first-order-bits"] ?? 20);
if (order !== 1 && order !== 2 && order !== 3) throw new Error("--order must be 1, 2 or 3");
// "vine": the parser's default cascade is the vine-pruning cascade of Rush & Petrov (2012), trained
// on the 10-fold jack-knifed copy of train before the parser (the default at order 3); "topk" (the
// default at orders 1 and 2): top-k heads per token.
const prune = values.prune ?? (third ? "vine" : "topk");
if (prune !== "vine" && prune !== "topk") throw new Error("--prune must be vine or topk");
if (third && prune !== "vine") throw new Error("--order 3 goes with --prune vine");
// Orders 2 and 3: log2 of the parser's weight table and of the region of it that holds the sibling and
// grandparent parts (`train --bits`, `--part-bits`; at order 2 by default 2^23 and all of it).
const optionalNumber = (v: string | undefined, dflt: number | undefined) =>
  v === undefined || v === "default" ? dflt : Number(v);
const bits = optionalNumber(values.bits, third ? 23 : undefined);
const partBits =
  values["part-bits"] === "all" ? undefined : optionalNumber(values["part-bits"], third ? 20 : undefined);
// Order 3 with --prune vine: whether the cascade has a second-order (sibling) max-marginal pass
// (default no: behind the filters it costs more time than it saves; docs/results.md).
const secondOrderPassValue = values["second-order-pass"] ?? "no";
if (secondOrderPassValue !== "yes" && secondOrderPassValue !== "no")
  throw new Error("--second-order-pass must be yes or no");
const secondOrderPass = secondOrderPassValue === "yes";
// --prune vine: after training, set each pass's α on dev (`vineparse filter tune --tolerance T`;
// default 0.2 at order 3, "no" to keep the α the passes trained with).
const tuneAlphaValue = values["tune-alpha"] ?? (third ? "0.2" : "no");
const tuneAlpha = tuneAlphaValue === "no" ? null : Number(tuneAlphaValue);
// Order 3: a last pass that guards against the third-order parser's worst case (`--prune topk:K:A`):
// in a sentence whose mask still keeps more than A heads per token on average, each token keeps its K
// best by the first-order model. No natural en_ewt sentence comes near it (at most 8.8 heads per token
// after the cascade in train and dev); a run of one repeated word does (45 in 600 words). "none": no guard.
const guardValue = values.guard ?? (third ? "16:16" : "none");
const guardMatch = /^(\d+):(\d+)$/.exec(guardValue);
if (guardValue !== "none" && guardMatch === null) throw new Error("--guard must be K:A or none");
const guard = guardMatch === null ? null : { k: Number(guardMatch[1]), above: Number(guardMatch[2]) };
// log2 of the linear and quadratic filters' weight tables, "L:Q": at order 3 the smaller tables of
// docs/results.md ("Smaller filter tables"), which stay in cache: 1.2 points less reduction on en_ewt
// dev, filtering in about 0.6 of the time; otherwise the filters' defaults.
const filterBitsMatch = /^(\d+):(\d+)$/.exec(values["filter-bits"] ?? (third ? "16:18" : "18:20"));
if (filterBitsMatch === null) throw new Error("--filter-bits must be L:Q (log2 of each table)");
const filterBits = { linear: filterBitsMatch[1]!, quadratic: filterBitsMatch[2]! };
// The first-order max-marginal pass (order 3): log2 of its table and its features (`train
// --cascade-bits`, `--pass-features`): a 2^18 table of coarse features by default. Against the
// recipe with the default filter tables and a full-feature 2^20 pass, the bundle came out as accurate
// and as fast (its tuned α prunes less), 4.3 MB smaller and 6 MiB lower in peak memory
// (docs/results.md, "A coarse first-order pass").
const cascadeBits = Number(values["cascade-bits"] ?? (third ? 18 : CASCADE_BITS));
if (!Number.isInteger(cascadeBits) || cascadeBits < 10 || cascadeBits > 26)
  throw new Error("--cascade-bits must be an integer in 10…26");
const passFeatures = values["pass-features"] ?? (third ? "coarse" : "full");
if (passFeatures !== "full" && passFeatures !== "coarse")
  throw new Error("--pass-features must be full or coarse");
const numbers = (v: string) => v.split(",").map(Number);
// The SPC loss bound of each max-marginal pass (order 3: one pass behind the filters).
const cascadeLoss = numbers(values["cascade-loss"] ?? (third ? "0.01" : "0.002,0.003"));
const vineBands = numbers(values["vine-band"] ?? "3");
// Order 2: heads kept per token by the first-order model after the cascade (default 10 with topk,
// 0 = none with vine).
const topK = Number(values.k ?? (prune === "vine" ? 0 : 10));
// With --prune vine: α of each pass at parse time, set after the parser has trained on the masks of
// the α chosen for --cascade-loss (a parser trained on tight masks and run on looser ones prunes
// more at little cost; see the cascade results in docs/results.md).
const testAlphas = values["test-alphas"] === undefined ? null : numbers(values["test-alphas"]);
// "rlq": the parser parses behind the Rules+Linear+Quad filter cascade (see above; with --prune vine
// the filters are trained first and take the vine pass's place in the cascade the parser trains on);
// "none": behind its own pruning (top-k or vine) as trained.
const filter = values.filter ?? (prune === "vine" && !third ? "none" : "rlq");
if (filter !== "rlq" && filter !== "none") throw new Error("--filter must be rlq or none");
const log = (s: string) => process.stderr.write(`${s}\n`);
// Check the output before hours of work; Ctrl-C / SIGTERM remove a half-written model (exit 130 / 143).
try {
  checkWritable(out);
} catch (e) {
  if (!(e instanceof VineparseError)) throw e;
  log(`build-model: ${e.message}`);
  process.exit(1);
}
removeTempFilesOnSignals();
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

let trainRead = readConlluFile(join(ud, tb, "train.conllu"));
if (limit > 0) trainRead = trainRead.slice(0, limit);
const devRead = readConlluFile(join(ud, tb, "dev.conllu"));
log(`${tb}: ${trainRead.length} train, ${devRead.length} dev sentences`);

// 0. Word vectors for the tagger's tag guesses ("none": no vectors).
const vectorSource = values.vectors ?? GLOVE_PACKAGE;
const vectors =
  values.vectors === "none"
    ? null
    : values.vectors === undefined
      ? loadGlove(100000, log)
      : readWordVectors(values.vectors);
log(`[${elapsed()}] vectors: ${vectors === null ? "none" : `${vectors.size} words from ${vectorSource}`}`);
// 1. Tagger on all of train; dev tagged with it (the parser's model selection sees realistic tags).
const tagger = Tagger.train(
  trainRead.map((r) => taggedSentence(r.sentence)),
  { vectors },
);
log(`[${elapsed()}] tagger trained`);
// 2. Jack-knifed training tags.
const jk = await jackknifeParallel(
  trainRead.map((r) => r.sentence),
  folds,
  {
    vectors,
    onFoldDone: (f, s) => log(`[${elapsed()}] jack-knife fold ${f + 1}/${folds} (${s.toFixed(1)} s)`),
  },
);
// 3. Parser on jack-knifed tags.
const vocab = new Vocabularies();
const withTags = (r: (typeof trainRead)[number], upos: string[], xpos: string[]) => {
  const s = toSentence(r, vocab);
  for (let i = 1; i <= s.n; i++) {
    s.upos[i] = vocab.upos.add(upos[i - 1]!);
    s.xpos[i] = vocab.xpos.add(xpos[i - 1]!);
  }
  return s;
};
const train = trainRead.map((r, i) => withTags(r, jk[i]!.upos, jk[i]!.xpos));
if (secondCopy === "gold") for (const r of trainRead) train.push(toSentence(r, vocab));
const copies = secondCopy === "noisy" ? noisyCopies : 0;
for (let c = 0; c < copies; c++) {
  const noisy = await jackknifeParallel(
    trainRead.map((r) => r.sentence),
    2,
    {
      epochs: 1,
      seed: c + 1,
      onFoldDone: (f, s) => log(`[${elapsed()}] noisy copy ${c + 1}: fold ${f + 1}/2 (${s.toFixed(1)} s)`),
    },
  );
  trainRead.forEach((r, i) => train.push(withTags(r, noisy[i]!.upos, noisy[i]!.xpos)));
}
let devTagCorrect = 0;
let devTokens = 0;
const dev = devRead.map((r) => {
  const gold = taggedSentence(r.sentence);
  const t = tagger.tag(gold.words);
  for (let i = 0; i < t.upos.length; i++) {
    devTokens++;
    if (t.upos[i] === gold.upos[i]) devTagCorrect++;
  }
  return withTags(r, t.upos, t.xpos);
});
const onEpoch = (what: string) => (e: EpochReport) => {
  log(
    `[${elapsed()}] ${what} epoch ${e.epoch}: dev UAS ${round(e.dev?.uasNoPunct ?? 0)} LAS ${round(e.dev?.lasNoPunct ?? 0)}`,
  );
};
// The filter cascade on the first (10-fold jack-knifed) copy of train, with the CLI's filter kinds.
function trainFilters(): PruningCascade {
  const kind = (name: string) => FILTER_KINDS.find((k) => k.name === name)!;
  const jkTrain = train.slice(0, trainRead.length);
  let cascade = new PruningCascade();
  for (const [name, coverage] of [
    ["rules", "99.95"],
    ["linear", "99.8"],
    ["quadratic", "99.5"],
  ] as const) {
    const passes = kind(name).train({
      train: jkTrain,
      dev,
      vocab,
      values: name === "rules" ? { coverage } : { coverage, bits: filterBits[name] },
      prefix: cascade,
      log: (s) => log(`[${elapsed()}] ${s}`),
    });
    cascade = cascade.concat(passes);
    const e = evaluateCascade(cascade, dev, vocab).scores;
    log(
      `[${elapsed()}] filter ${cascade.name}: dev coverage ${round(e.coverage)}%, reduction ${round(e.reduction)}%`,
    );
  }
  return cascade;
}
// With --prune vine: the cascade first, trained on the first (10-fold jack-knifed) copy of train;
// with --filter rlq the filters come first and take the vine pass's place (the max-marginal passes
// train on what they leave).
const cascade =
  prune === "vine"
    ? trainVineCascade(train.slice(0, trainRead.length), dev, vocab, {
        order: order as 1 | 2 | 3,
        secondOrderPass,
        bands: vineBands,
        maxLoss: cascadeLoss,
        passFeatures,
        spc: { bits: cascadeBits },
        ...(filter === "rlq" ? { prefix: trainFilters(), vinePass: false } : {}),
        log: (s) => log(`[${elapsed()}] ${s}`),
      }).cascade
    : undefined;
// Order 2: sibling parts on the cascade and/or top-k first-order pruning (the first-order model
// labels the arcs).
const { parser, bestEpoch, history } =
  order === 1
    ? trainParser(train, vocab, {
        epochs: parserEpochs,
        dev,
        ...(cascade === undefined ? {} : { cascade }),
        onEpoch: onEpoch("parser"),
      })
    : trainHigherOrderParser(train, vocab, {
        order: order as 2 | 3,
        epochs: parserEpochs,
        ...(bits === undefined ? {} : { bits }),
        ...(partBits === undefined ? {} : { partBits }),
        firstOrderBits,
        k: topK,
        ...(cascade === undefined ? {} : { prefix: cascade }),
        dev,
        onFirstOrderEpoch: onEpoch("first-order"),
        onEpoch: onEpoch(order === 3 ? "third-order" : "second-order"),
      });
const best = history[bestEpoch - 1]!.dev!;
if (testAlphas !== null && cascade !== undefined)
  cascade.passes.forEach((p, i) => {
    const a = testAlphas[i];
    if (a !== undefined && "alpha" in p && typeof p.alpha === "number") (p as { alpha: number }).alpha = a;
  });
if (filter === "rlq" && prune === "topk") parser.cascade = trainFilters();
const tuned =
  tuneAlpha !== null && cascade !== undefined
    ? tuneCascadeAlphas(parser, parser.cascade, dev, vocab, {
        tolerance: tuneAlpha,
        log: (s) => log(`[${elapsed()}] ${s}`),
      })
    : null;
if (tuned !== null)
  log(
    `[${elapsed()}] alpha tuned on dev: ${tuned.passes.map((p) => `${p.kind} ${p.before} → ${p.after}`).join(", ")}; dev UAS-P ${round(tuned.before)} → ${round(tuned.after)}`,
  );
if (guard !== null) parser.cascade = parser.cascade.concat([topKFor(parser, guard.k, guard.above)]);
const morph = withMorph
  ? MorphModel.train(
      trainRead.map((r) => morphSentence(r.sentence)),
      { dev: devRead.map((r) => morphSentence(r.sentence)), bits: morphBits },
    )
  : undefined;
if (morph !== undefined)
  log(`[${elapsed()}] morph model: ${morph.rules.size} lemma rules, ${morph.bundles.length} feature bundles`);
const tokenizer =
  tokenizerKind === "rules"
    ? undefined
    : LearnedTokenizer.train(
        trainRead.map((r) => r.sentence),
        { wordsBy: tokenizerKind === "sentences" ? "rules" : "model", spacing },
      );
if (tokenizer !== undefined) log(`[${elapsed()}] tokenizer: ${tokenizer.mwt.size} multiword tokens`);
writeBundle(out, {
  tagger,
  parser,
  ...(morph === undefined ? {} : { morph }),
  ...(tokenizer === undefined ? {} : { tokenizer }),
  info: {
    treebank: tb,
    trainSentences: trainRead.length,
    parserTrainingSentences: train.length,
    jackknifeFolds: folds,
    vectors: vectors === null ? null : { source: vectorSource, words: vectors.size },
    secondCopy,
    ...(secondCopy === "noisy" ? { noisyCopies } : {}),
    parser: {
      order: parser.order,
      epochs: parserEpochs,
      bestEpoch,
      ...(order >= 2 ? { firstOrderBits, k: topK } : {}),
      ...(bits === undefined ? {} : { bits }),
      ...(partBits === undefined ? {} : { partBits }),
      prune,
      ...(prune === "vine"
        ? {
            cascadeLoss,
            vineBands,
            testAlphas,
            ...(order === 3 ? { secondOrderPass } : {}),
            ...(tuned === null ? {} : { tuneAlpha, alphas: tuned.passes.map((p) => p.after) }),
            ...(guard === null ? {} : { guard }),
          }
        : {}),
      filter,
    },
    devPredictedTags: {
      upos: round((100 * devTagCorrect) / devTokens),
      uasNoPunct: round(best.uasNoPunct),
      lasNoPunct: round(best.lasNoPunct),
    },
    ...(morph === undefined
      ? {}
      : { morph: { trainedOn: "train, gold tags", dev: "epoch chosen on dev", bits: morphBits } }),
    ...(tokenizer === undefined
      ? {}
      : {
          tokenizer: {
            trainedOn: "train",
            epochs: 8,
            bits: tokenizer.bits,
            words: tokenizer.wordsBy,
            spacing,
          },
        }),
    command: "npm run build-model",
  },
});
log(
  `[${elapsed()}] wrote ${out} (dev with predicted tags: UPOS ${round((100 * devTagCorrect) / devTokens)}, UAS ${round(best.uasNoPunct)}, LAS ${round(best.lasNoPunct)})`,
);
