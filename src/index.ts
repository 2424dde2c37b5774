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
export { Vocab, Vocabularies } from "./corpus/vocab.js";
export { VineparseError } from "./errors.js";
export { ArcMask } from "./prune/arc-mask.js";
export { AtomicWriter, writeFileAtomic } from "./util/atomic-write.js";
export { Rng } from "./util/rng.js";
