import { VineparseError } from "../errors.js";

/** The error for input that needs tagging (raw text, --retag, untagged CoNLL-U) given a parser-only model. */
export function noTaggerError(file?: string, line?: number): VineparseError {
  return new VineparseError(
    "no-tagger",
    "this model has no tagger: give tagged CoNLL-U, or a pipeline model",
    file,
    line,
  );
}
