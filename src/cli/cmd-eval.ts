import { type AttachmentScores, evaluateFiles } from "../eval/attachment.js";
import { round } from "../eval/percent.js";
import { formatTable } from "../eval/table.js";
import { parseCommandArgs, requireOption, UsageError } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse eval --gold G.conllu --system S.conllu [--json]

Scores a parsed CoNLL-U file against the gold file: UAS and LAS (all tokens and without
punctuation, i.e. gold UPOS PUNCT), unlabelled and labelled exact match. Relations are compared
in full (subtypes included). Both files must hold the same sentences with the same words.

options:
  --gold FILE    gold-standard CoNLL-U ("-" = stdin)
  --system FILE  system output CoNLL-U ("-" = stdin)
  --json         print one JSON object instead of a table
  -h, --help     show this help
`;

/** The scores as printed by `eval --json`: percentages rounded to 2 decimals. */
export function evalJson(s: AttachmentScores): Record<string, number> {
  return {
    sentences: s.sentences,
    tokens: s.tokens,
    tokensNoPunct: s.tokensNoPunct,
    uas: round(s.uas),
    las: round(s.las),
    uasNoPunct: round(s.uasNoPunct),
    lasNoPunct: round(s.lasNoPunct),
    exactMatch: round(s.exactMatch),
    labelledExactMatch: round(s.labelledExactMatch),
    exactMatchNoPunct: round(s.exactMatchNoPunct),
    labelledExactMatchNoPunct: round(s.labelledExactMatchNoPunct),
  };
}

/** `vineparse eval`: attachment scores of a system file against gold. */
export const command: Command = {
  summary: "attachment scores (UAS/LAS, exact match) of a parsed file against gold",
  usage,
  async run(args) {
    const { values } = parseCommandArgs("eval", args, {
      gold: { type: "string" },
      system: { type: "string" },
      json: { type: "boolean" },
    });
    const gold = requireOption("eval", "gold", values.gold);
    const system = requireOption("eval", "system", values.system);
    if (gold === "-" && system === "-")
      throw new UsageError("eval: --gold and --system cannot both be stdin");
    const s = evaluateFiles(gold, system);
    if (values.json === true) {
      process.stdout.write(JSON.stringify(evalJson(s)) + "\n");
      return 0;
    }
    const rows = [
      ["UAS", round(s.uas), round(s.uasNoPunct)],
      ["LAS", round(s.las), round(s.lasNoPunct)],
      ["exact match", round(s.exactMatch), round(s.exactMatchNoPunct)],
      ["labelled exact match", round(s.labelledExactMatch), round(s.labelledExactMatchNoPunct)],
    ].map((r) => r.map((c) => (typeof c === "number" ? c.toFixed(2) : c)));
    rows.push(["tokens", String(s.tokens), String(s.tokensNoPunct)]);
    rows.push(["sentences", String(s.sentences), String(s.sentences)]);
    process.stdout.write(formatTable(["metric", "all", "no punct"], rows));
    return 0;
  },
};
