import { VineparseError } from "../errors.js";
import type { TaggedSentence } from "../tagger/tagged-sentence.js";
import type { Sentence } from "./sentence.js";
import type { Vocabularies } from "./vocab.js";

/**
 * Throws a one-line `VineparseError` unless `train` can teach a parser something: at least one
 * sentence, part-of-speech tags (not UPOS "_" everywhere) and dependency relations (not DEPREL "_"
 * everywhere). `file` names the training file in the message.
 */
export function checkParserTrainingData(
  train: readonly Sentence[],
  vocab: Vocabularies,
  file?: string,
): void {
  if (train.length === 0) throw new VineparseError("no-training-data", "no training sentences", file);
  const none = vocab.upos.get("_");
  let tagged = false;
  let labelled = false;
  for (const s of train) {
    for (let i = 1; i <= s.n; i++) {
      if (s.upos[i] !== none) tagged = true;
      if (s.deprel[i] !== 0) labelled = true;
    }
    if (tagged && labelled) return;
  }
  if (!tagged) throw untagged(file);
  throw new VineparseError(
    "no-training-data",
    "the training data has no dependency relations (DEPREL is _ everywhere)",
    file,
  );
}

/** Throws a one-line `VineparseError` unless `train` has at least one sentence and some UPOS tags. */
export function checkTaggerTrainingData(train: readonly TaggedSentence[], file?: string): void {
  if (train.length === 0) throw new VineparseError("no-training-data", "no training sentences", file);
  for (const s of train) for (const t of s.upos) if (t !== "_") return;
  throw untagged(file);
}

function untagged(file: string | undefined): VineparseError {
  return new VineparseError(
    "no-training-data",
    "the training data has no part-of-speech tags (UPOS is _ everywhere)",
    file,
  );
}
