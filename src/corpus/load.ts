import { type ReadOptions, readConlluFile } from "../conllu/read.js";
import { type Sentence, toSentence } from "./sentence.js";
import { Vocabularies } from "./vocab.js";

/** A treebank in memory: its sentences and the vocabularies their ids refer to. */
export interface Corpus {
  sentences: Sentence[];
  vocab: Vocabularies;
}

/** Loads a CoNLL-U file into typed-array sentences (sharing `vocab` if given, so ids agree across files). */
export function loadCorpus(
  path: string,
  vocab = new Vocabularies(),
  opts: ReadOptions & { keepSource?: boolean } = {},
): Corpus {
  const sentences: Sentence[] = [];
  for (const r of readConlluFile(path, opts)) sentences.push(toSentence(r, vocab, opts.keepSource ?? false));
  return { sentences, vocab };
}
