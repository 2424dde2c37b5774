import { type CorpusStats, fileStats } from "../corpus/stats.js";
import { round } from "../eval/percent.js";
import { type Cell, formatTable } from "../eval/table.js";
import { parseCommandArgs } from "./args.js";
import type { Command } from "./command.js";

const usage = `usage: vineparse stats FILE [--json]

Prints statistics of a CoNLL-U treebank ("-" reads stdin): sentences, tokens, mean and
maximum length, non-projective sentence and arc rates, and the oracle bound on arc-pruning
reduction, 100 · (1 − Σn / Σn²). Rates are in percent.

options:
  --json      print one JSON object instead of a table
  -h, --help  show this help
`;

/** The stats as printed by `stats --json`: percentages and the mean length rounded to 2 decimals. */
export function statsJson(file: string, s: CorpusStats): Record<string, string | number> {
  return {
    file,
    sentences: s.sentences,
    tokens: s.tokens,
    meanLength: round(s.meanLength),
    maxLength: s.maxLength,
    nonProjectiveSentences: round(s.nonProjectiveSentences),
    nonProjectiveArcs: round(s.nonProjectiveArcs),
    oracleReduction: round(s.oracleReduction),
    nonProjectiveSentenceCount: s.nonProjectiveSentenceCount,
    nonProjectiveArcCount: s.nonProjectiveArcCount,
    multiwordTokens: s.multiwordTokens,
    emptyNodes: s.emptyNodes,
  };
}

/** `vineparse stats`: treebank statistics. */
export const command: Command = {
  summary: "statistics of a CoNLL-U treebank (length, non-projectivity, oracle pruning bound)",
  usage,
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      "stats",
      args,
      { json: { type: "boolean" } },
      { min: 1, max: 1, name: "FILE" },
    );
    const file = positionals[0]!;
    const s = await fileStats(file);
    if (values.json === true) {
      process.stdout.write(JSON.stringify(statsJson(file, s)) + "\n");
      return 0;
    }
    const rows: Cell[][] = [
      ["sentences", s.sentences, null],
      ["tokens", s.tokens, null],
      ["mean length", s.meanLength.toFixed(2), null],
      ["max length", s.maxLength, null],
      ["non-projective sentences", s.nonProjectiveSentenceCount, s.nonProjectiveSentences.toFixed(2)],
      ["non-projective arcs", s.nonProjectiveArcCount, s.nonProjectiveArcs.toFixed(2)],
      ["oracle reduction", null, s.oracleReduction.toFixed(2)],
      ["multiword tokens", s.multiwordTokens, null],
      ["empty nodes", s.emptyNodes, null],
    ];
    process.stdout.write(`${file === "-" ? "<stdin>" : file}\n`);
    process.stdout.write(formatTable(["statistic", "value", "%"], rows));
    return 0;
  },
};
