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
export { EisnerMaxMarginals, type MaxMarginals } from "./decode/eisner-max-marginals.js";
export { createFirstOrderDecoder, FIRST_ORDER_DECODERS } from "./decode/first-order-factory.js";
export { grandSiblingParts, scoreGrandSiblingTree, scoreSiblingTree, siblingParts } from "./decode/parts.js";
export type * from "./decode/parts-types.js";
export { SecondOrderDecoder } from "./decode/second-order.js";
export { ThirdOrderDecoder } from "./decode/third-order.js";
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
export { oracleReduction, type PruningCounts, PruningEvaluator, type PruningScores } from "./eval/pruning.js";
export { type ModelData, readModelFile, writeModelFile } from "./model/model-file.js";
export { loadParser } from "./parser/load-parser.js";
export { Parser, type ParserConfig } from "./parser/parser.js";
export { type EpochReport, evaluateParser, type TrainOptions, trainParser } from "./parser/train.js";
export type { DependencyParser, ParseResult } from "./parser/types.js";
export { ArcMask } from "./prune/arc-mask.js";
export { AtomicWriter, writeFileAtomic } from "./util/atomic-write.js";
export { Rng } from "./util/rng.js";
