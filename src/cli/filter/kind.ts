import type { Sentence } from "../../corpus/sentence.js";
import type { Vocabularies } from "../../corpus/vocab.js";
import type { PruningCascade } from "../../prune/cascade.js";
import type { ArcPruner } from "../../prune/pruner.js";
import type { OptionTable } from "../args.js";

/** What `vineparse filter train` hands a filter kind's trainer. */
export interface FilterTrainContext {
  /** Training sentences (tags as in the file: jack-knifed, for realistic filters). */
  train: Sentence[];
  /** Development sentences (tagged by the tagger), for choosing costs and operating points; may be absent. */
  dev: Sentence[] | undefined;
  /** Vocabularies of both. */
  vocab: Vocabularies;
  /** The kind's own option values, as parsed. */
  values: Record<string, string | boolean | undefined>;
  /** Passes given with --after: the new passes train and run on what they leave. */
  prefix: PruningCascade;
  /** Progress output (stderr unless --quiet). */
  log: (line: string) => void;
}

/** A kind of filter `vineparse filter train --kind NAME` can train. */
export interface FilterKind {
  /** Value of --kind. */
  readonly name: string;
  /** One line for the usage text. */
  readonly summary: string;
  /** The kind's own options (parsed strictly, beside the common ones). */
  readonly options: OptionTable;
  /** Usage lines of those options. */
  readonly usage: string;
  /** Trains the kind's passes (run after the --after passes, which the output file also holds). */
  train(ctx: FilterTrainContext): ArcPruner[];
}
