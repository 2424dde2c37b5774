import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { experiment } from "../bench/exp-cascade.js";
import { BenchContext, resultsDir } from "../bench/lib.js";
import { runCli, toyVineTrainArgs } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

test("cascade bench on a toy vine cascade: paired speeds, each row's unpruned UAS-P, nothing written when not recording", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-bench-cascade-"));
  try {
    const trainPath = join(dir, "train.conllu");
    const devPath = join(dir, "dev.conllu");
    writeFileSync(trainPath, toyTreebank(120, 5));
    writeFileSync(devPath, toyTreebank(40, 6));
    const model = join(dir, "o1.vpm");
    const t = runCli(toyVineTrainArgs(trainPath, devPath, 1, model));
    assert.equal(t.status, 0, t.stderr);
    const before = readdirSync(resultsDir);
    let printed = "";
    const args = [
      "--model1",
      model,
      "--dev",
      devPath,
      "--reps",
      "2",
      "--alphas",
      "0.9",
      "--also",
      `1:again=${model}`,
    ];
    const ctx = new BenchContext("cascade", args, { record: false, write: (s) => (printed += s) });
    await experiment.run(args, ctx);
    assert.deepEqual(readdirSync(resultsDir), before, "a run that is not recorded writes no result file");
    assert.doesNotMatch(printed, /plot written/);

    const speed = ctx.tables[0]!;
    const col = (name: string) => {
      const i = speed.columns.indexOf(name);
      assert.ok(i >= 0, `column ${name}`);
      return i;
    };
    const rows = new Map(speed.rows.map((r) => [r[col("pruning")] as string, r]));
    assert.deepEqual(
      [...rows.keys()],
      ["NoPrune", "FirstOnly (top-10)", "VineCascade", "VineCascade α 0.9", "again", "again α 0.9"],
    );
    const noPrune = rows.get("NoPrune")!;
    assert.equal(noPrune[col("speed ×")], 1);
    assert.equal(noPrune[col("paired ×")], 1);
    // Every row runs the same final model (the --also row loads it again): its UAS-P without a
    // cascade is the NoPrune row's, whatever its own cascade does to its UAS-P.
    for (const [name, r] of rows) {
      assert.equal(r[col("UAS-P unpruned")], noPrune[col("UAS-P")], name);
      const paired = r[col("paired ×")] as number;
      assert.ok(paired > 0 && Number.isFinite(paired), `${name}: paired × ${paired}`);
    }
    assert.equal(rows.get("again")![col("UAS-P")], rows.get("VineCascade")![col("UAS-P")]);
    assert.equal(rows.get("again")![col("pruned %")], rows.get("VineCascade")![col("pruned %")]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
