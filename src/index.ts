// Public API of vineparse: everything the CLI does is importable from here.

export {
  parseConllu,
  type ReadOptions,
  type ReadSentence,
  readConlluFile,
  readText,
  streamConllu,
} from "./conllu/read.js";
export * from "./conllu/types.js";
export { validateTree } from "./conllu/validate.js";
export { type Annotation, formatSentence } from "./conllu/write.js";
export { type Corpus, loadCorpus } from "./corpus/load.js";
export { type Sentence, toSentence } from "./corpus/sentence.js";
export {
  type CorpusStats,
  corpusStats,
  countNonProjectiveArcs,
  fileStats,
  isProjective,
  StatsAccumulator,
} from "./corpus/stats.js";
export { Vocab, Vocabularies } from "./corpus/vocab.js";
export { enumerateTrees } from "./decode/brute-force.js";
export { ChuLiuEdmondsDecoder } from "./decode/chu-liu-edmonds.js";
export { EisnerDecoder } from "./decode/eisner.js";
export {
  EisnerMaxMarginals,
  type FirstOrderWitnessCounts,
  type MaxMarginals,
} from "./decode/eisner-max-marginals.js";
export { EisnerWitnessCounts, type FirstOrderWitnesses } from "./decode/eisner-witness-counts.js";
export { DEAD_ITEM, MaxPlusHypergraph, UNIT_ITEM } from "./decode/max-plus-hypergraph.js";
export {
  alphaThreshold,
  firstOrderPruneMask,
  meanMaxMarginal,
  vinePruneMask,
  vineThreshold,
} from "./decode/max-marginal-pruning.js";
export { createFirstOrderDecoder, FIRST_ORDER_DECODERS } from "./decode/first-order-factory.js";
export { grandSiblingParts, scoreGrandSiblingTree, scoreSiblingTree, siblingParts } from "./decode/parts.js";
export type * from "./decode/parts-types.js";
export { SecondOrderDecoder } from "./decode/second-order.js";
export {
  SiblingMaxMarginals,
  type SiblingMaxMarginalOptions,
  type SiblingMaxMarginalsResult,
  type SiblingWitnessCounts,
} from "./decode/sibling-max-marginals.js";
export { ThirdOrderDecoder } from "./decode/third-order.js";
export {
  type VineMaxMarginals,
  type VineOptions,
  type VineParse,
  VineParser,
  type VineScoreArrays,
  type VineWitnessCounts,
} from "./decode/vine-parser.js";
export {
  isVineStructure,
  toVineStructure,
  VINE_LEFT,
  VINE_RIGHT,
  VineScores,
  vineShortIndex,
  vineSlot,
  vineSlotHead,
  vineStructureScore,
  vineTree,
} from "./decode/vine-structure.js";
export type {
  DecodeResult,
  FirstOrderDecoder,
  FirstOrderDecoderName,
  FirstOrderOptions,
} from "./decode/types.js";
export { VineparseError } from "./errors.js";
export {
  type AttachmentCounts,
  AttachmentEvaluator,
  type AttachmentOptions,
  type AttachmentScores,
  checkAligned,
  evaluateConllu,
  evaluateFiles,
} from "./eval/attachment.js";
export { type PairedDifference, pairedBootstrap } from "./eval/bootstrap.js";
export { type FilterImpact, filterImpact } from "./eval/filter-impact.js";
export { oracleReduction, type PruningCounts, PruningEvaluator, type PruningScores } from "./eval/pruning.js";
export {
  type RepairedTags,
  repairTags,
  type SentenceTags,
  uposConfusion,
  uposConfusions,
} from "./eval/tag-errors.js";
export { decodeModelBytes, type ModelData, readModelFile, writeModelFile } from "./model/model-file.js";
export { loadParser, parserFromModel } from "./parser/load-parser.js";
export {
  HigherOrderParser,
  type HigherOrderConfig,
  type HigherOrderParseResult,
} from "./parser/higher-order-parser.js";
export {
  trainHigherOrderParser,
  evaluateDependencyParser,
  type HigherOrderTrainOptions,
  type HigherOrderEpochReport,
  type HigherOrderTrainResult,
} from "./parser/higher-order-train.js";
export { Parser, type ParserConfig } from "./parser/parser.js";
export { type BlockTimes, blockTimes, PARSE_BLOCK, parseBlock, parsePruned } from "./parser/pruned-parse.js";
export { type EpochReport, evaluateParser, type TrainOptions, trainParser } from "./parser/train.js";
export type { DependencyParser, ParseResult } from "./parser/types.js";
export { TRANSITION_KIND, type TransitionConfig, TransitionParser } from "./transition/parser.js";
export {
  type TransitionEpochReport,
  type TransitionTrainOptions,
  type TransitionTrainResult,
  trainTransitionParser,
} from "./transition/train.js";
export { type Bundle, readBundle, writeBundle } from "./pipeline/bundle.js";
export { loadPipelineFromBytes } from "./browser.js";
export { DEFAULT_MODEL, loadPipeline, loadSegmenter } from "./pipeline/default-model.js";
export { pipelineFromModel } from "./pipeline/from-model.js";
export {
  type AnnotatedSentence,
  type JsonSentence,
  type JsonToken,
  type JsonWord,
  Pipeline,
  PIPELINE_MAX_FORMS,
  type PipelineTimes,
  pipelineTimes,
  type PruningStage,
  type TextOptions,
  toConllu,
  toJson,
  toJsonLine,
  toTreeText,
} from "./pipeline/pipeline.js";
export {
  ENGLISH_RULES,
  type SegmentOptions,
  type Segmenter,
  segmentText,
  type TokenizedSentence,
} from "./pipeline/sentence-split.js";
export {
  LearnedTokenizer,
  TOKENIZER_KIND,
  TOKENIZER_VERSION,
  type TokenizerTrainOptions,
} from "./tokenizer/learned-tokenizer.js";
export { evaluateFull, evaluateTokenization, goldSentences } from "./pipeline/token-eval.js";
export { type Tokenization, type TokToken, type TokWord, tokenize } from "./pipeline/tokenize.js";
export { formatTree, type PrintableTree } from "./pipeline/tree-format.js";
export { ArcMask } from "./mask/arc-mask.js";
export { CASCADE_KIND, CascadeStats, type PassStats, PruningCascade } from "./prune/cascade.js";
export {
  cascadeFromModelData,
  cascadeFromParts,
  cascadeModelData,
  loadCascade,
  PRUNER_KINDS,
  type PrunerContext,
  prunerFromModelData,
} from "./prune/load-pruner.js";
export type { ArcPruner, PruneInput } from "./prune/pruner.js";
export { type PruneRank, TOPK_KIND, TopKPruner, type TopKWeightSource } from "./prune/top-k.js";
// Linear token-role filter and quadratic arc filter (Bergsma & Cherry 2010, §4.3–4.4).
export {
  ARC_TEMPLATE_NAMES,
  ARC_TEMPLATES,
  ArcFilterFeatures,
  arcFeatureIndex,
  BETWEEN_WINDOW,
  DEFAULT_DIST_SCALE,
} from "./prune/arc-filter-features.js";
export { cascadeMasks, maskTotals } from "./prune/cascade-masks.js";
export {
  type CombinationProblem,
  type CombinationResult,
  evaluateCombination,
  searchCombinations,
  SignatureTable,
} from "./prune/combination-search.js";
export {
  type FilterCosts,
  type FilterJob,
  type FilterLearner,
  type FilterProblem,
  learnAll,
  parseCostGrid,
} from "./prune/filter-learner.js";
export {
  FormTable,
  prefixAtom,
  prefixOf,
  shapeAtom,
  suffixAtom,
  suffixOf,
  wordAtom,
  wordShape,
} from "./prune/form-atoms.js";
export {
  QUADRATIC_KIND,
  QUADRATIC_VERSION,
  QuadraticFilter,
  type QuadraticInfo,
} from "./prune/quadratic-filter.js";
export {
  type RoleAblationRow,
  roleAblation,
  type RoleDecisionQuality,
  roleDecisionQuality,
} from "./prune/token-role-analysis.js";
export {
  applyRoles,
  decideRoles,
  NUM_ROLES,
  ROLE,
  ROLE_NAMES,
  ROLE_PAPER_NAMES,
  roleActive,
  roleLabels,
  type RoleName,
} from "./prune/token-role-decisions.js";
export {
  TOKEN_CONJUNCTIONS,
  TOKEN_TEMPLATE_NAMES,
  TOKEN_TEMPLATES,
  tokenFeatureIndex,
  TokenRoleFeatures,
} from "./prune/token-role-features.js";
export {
  LINEAR_KIND,
  LINEAR_VERSION,
  type RoleDecisionInfo,
  TokenRoleFilter,
} from "./prune/token-role-filter.js";
export {
  DEFAULT_QUADRATIC_COSTS,
  type QuadraticSetting,
  type QuadraticTrainOptions,
  type QuadraticTrainResult,
  trainQuadraticFilter,
} from "./prune/train-quadratic.js";
export {
  type CurvePoint,
  DEFAULT_ROLE_COSTS,
  DEFAULT_ROLE_LEVELS,
  type TokenRoleSearch,
  type TokenRoleTrainOptions,
  type TokenRoleTrainResult,
  trainTokenRoleFilter,
} from "./prune/train-token-roles.js";
export { type TagAccuracy, tagAccuracy } from "./tagger/accuracy.js";
export { type FoldInfo, type JackknifeOptions, jackknife, jackknifeFolds } from "./tagger/jackknife.js";
export type { TaggerMode, TagResult } from "./tagger/tag-decoder.js";
export { type TaggedSentence, taggedSentence } from "./tagger/tagged-sentence.js";
export { TAGGER_KIND, TAGGER_VERSION, Tagger, toAnnotation } from "./tagger/tagger.js";
export { type EpochProgress, type TaggerTrainOptions, trainTagDecoder } from "./tagger/train-tagger.js";
export {
  type GuesserSentence,
  trainWordGuesser,
  WordGuesser,
  type WordGuesserOptions,
} from "./tagger/word-guesser.js";
export { principalComponents, readWordVectors, VECTORS_KIND, WordVectors } from "./vectors/word-vectors.js";
export { AtomicWriter, writeFileAtomic } from "./util/atomic-write.js";
export { Rng } from "./util/rng.js";
// Reliability (issue #13): streaming raw text, strict UTF-8, safe outputs, training-data checks.
export { checkParserTrainingData, checkTaggerTrainingData } from "./corpus/training-data.js";
export { fromModelContent } from "./model/model-file.js";
export {
  parseTextStream,
  type StreamTextOptions,
  type TextBlock,
  textBlocks,
} from "./pipeline/parse-stream.js";
export { segmentStream, type StreamSegmentOptions, type StreamSentence } from "./pipeline/text-stream.js";
export { checkWritable, type OutputTarget, outputTarget } from "./util/atomic-write.js";
export { removeTempFilesOnSignals } from "./util/temp-files.js";
export { decodeUtf8, readUtf8Chunks, Utf8StreamDecoder } from "./util/utf8.js";
export {
  type LinearSvmOptions,
  type LinearSvmResult,
  rowDot,
  type SvmLoss,
  svmDualObjective,
  svmPrimalObjective,
  trainLinearSvm,
} from "./learn/linear-svm.js";
export { type SvmTask, trainLinearSvms } from "./learn/multi-svm.js";
export { type SparseRows, SparseRowsBuilder } from "./prune/sparse-rows.js";
// Baselines and PoS rules of Bergsma & Cherry (2010): Len-Vine, Tag-Vine, rules.
export { LENVINE_KIND, type LenVineInfo, LenVinePruner } from "./prune/len-vine.js";
export { type LenVineOptions, type LenVineTraining, trainLenVine } from "./prune/train-len-vine.js";
export { TAGVINE_KIND, type TagVineInfo, TagVinePruner } from "./prune/tag-vine.js";
export {
  TagVinePath,
  type TagVineOptions,
  type TagVineTraining,
  trainTagVine,
} from "./prune/train-tag-vine.js";
export { type PosRules, PosRulesPruner, RULES_KIND, type RulesInfo } from "./prune/pos-rules.js";
export {
  type AggregatedProblem,
  exactRuleLearner,
  type RuleClassifierWeights,
  type RuleLearner,
  ruleObjective,
} from "./prune/rule-learner.js";
export { ruleProblems, type RulesOptions, type RulesTraining, trainRules } from "./prune/train-rules.js";
export { type TagColumn, TagMap } from "./prune/tag-map.js";
export { VINE_KIND, VINE_VERSION, VinePass } from "./prune/vine-pass.js";
export { OUTER_FEATURES, outerFeatures, VinePartScorer } from "./prune/vine-features.js";
export {
  applyArcThreshold,
  type ArcMaxMarginals,
  MAX_MARGINAL_COARSE_VERSION,
  MAX_MARGINAL_KIND,
  MAX_MARGINAL_VERSION,
  MaxMarginalPass,
  type PassFeatures,
} from "./prune/max-marginal-pass.js";
export {
  type AlphaTuneOptions,
  type AlphaReference,
  type AlphaTuneResult,
  setCascadeAlphas,
  tuneCascadeAlphas,
} from "./prune/tune-alphas.js";
export {
  ALPHA_GRID,
  alphaCurve,
  type AlphaPoint,
  type CascadePassReport,
  chooseAlpha,
  type PassTotals,
  prepareAtoms,
  type SpcEpochReport,
  type SpcOptions,
  type SpcPass,
  type SpcPassSpec,
  trainSpcPass,
  trainVineCascade,
  type VineCascadeOptions,
  type VineCascadeResult,
} from "./prune/train-spc.js";
export { applyRule, type EditRule, parseRuleKey, ruleFor, ruleKey, RuleSet } from "./morph/edit-rule.js";
export {
  formatMorph,
  MORPH_KIND,
  MORPH_VERSION,
  type MorphAccuracy,
  morphAccuracy,
  type MorphInput,
  MorphModel,
  type MorphResult,
  type MorphSentence,
  morphSentence,
  type MorphTrainOptions,
} from "./morph/morph-model.js";
