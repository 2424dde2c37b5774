import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadCorpus } from "../src/corpus/load.js";
import { Vocabularies } from "../src/corpus/vocab.js";
import { evaluateParser } from "../src/parser/evaluate.js";
import { loadParser } from "../src/parser/load-parser.js";
import { PruningCascade } from "../src/prune/cascade.js";
import type { ArcPruner } from "../src/prune/pruner.js";
import { setCascadeAlphas, tuneCascadeAlphas } from "../src/prune/tune-alphas.js";
import { runCli, toyVineTrainArgs } from "./toy-models.js";
import { toyTreebank } from "./toy-treebank.js";

const alphas = (passes: readonly ArcPruner[]) =>
  passes
    .filter((p) => p.kind === "vine" || p.kind === "maxmarginal")
    .map((p) => (p as unknown as { alpha: number }).alpha);

test("cascade α tuning on dev: only raises α, keeps each dev half within the tolerance, stops at the first miss; filter tune writes it", () => {
  const dir = mkdtempSync(join(tmpdir(), "vp-tune-"));
  try {
    const trainPath = join(dir, "train.conllu");
    const devPath = join(dir, "dev.conllu");
    writeFileSync(trainPath, toyTreebank(120, 3));
    writeFileSync(devPath, toyTreebank(60, 4));
    const model = join(dir, "o2.vpm");
    // Trains a second-order model behind a vine and a first-order max-marginal pass.
    const trainVine = (out: string, ...more: string[]) =>
      runCli(toyVineTrainArgs(trainPath, devPath, 2, out, ...more));
    const t = trainVine(model);
    assert.equal(t.status, 0, t.stderr);

    const vocab = new Vocabularies();
    const dev = loadCorpus(devPath, vocab).sentences;
    const halves = [dev.filter((_, i) => i % 2 === 0), dev.filter((_, i) => i % 2 === 1)];
    const halfScores = (p: ReturnType<typeof loadParser>) =>
      halves.map((h) => evaluateParser(p, h, vocab).uasNoPunct);

    const parser = loadParser(model);
    const trained = alphas(parser.cascade.passes);
    assert.equal(trained.length, 2);
    const start = halfScores(parser);
    const tolerance = 0.5;
    const r = tuneCascadeAlphas(parser, parser.cascade, dev, vocab, { tolerance });
    const tuned = alphas(parser.cascade.passes);
    assert.deepEqual(
      r.passes.map((p) => p.after),
      tuned,
    );
    for (let i = 0; i < tuned.length; i++)
      assert.ok(tuned[i]! >= trained[i]!, `pass ${i}: ${tuned[i]} < ${trained[i]}`);
    // Every pass's trials climb the grid; all are within the tolerance but the last, which may have
    // stopped the climb; the pass keeps the last trial within it.
    for (const p of r.passes) {
      const mine = r.trials.filter((x) => x.pass === p.pass);
      for (let k = 1; k < mine.length; k++) assert.ok(mine[k]!.alpha > mine[k - 1]!.alpha);
      for (let k = 0; k < mine.length - 1; k++) assert.ok(mine[k]!.accepted);
      const within = mine.filter((x) => x.accepted);
      assert.equal(p.after, within.length === 0 ? p.before : within[within.length - 1]!.alpha);
    }
    // The tuned cascade keeps each half of dev within the tolerance of where it started.
    const end = halfScores(parser);
    for (let k = 0; k < 2; k++)
      assert.ok(end[k]! >= start[k]! - tolerance - 1e-9, `half ${k}: ${end[k]} < ${start[k]}`);
    assert.ok(Math.abs(r.after - evaluateParser(parser, dev, vocab).uasNoPunct) < 1e-9);

    // An empty grid changes nothing; a tolerance of 100 points takes every pass to the top of the grid.
    const untouched = loadParser(model);
    tuneCascadeAlphas(untouched, untouched.cascade, dev, vocab, { grid: [] });
    assert.deepEqual(alphas(untouched.cascade.passes), trained);
    const loose = loadParser(model);
    tuneCascadeAlphas(loose, loose.cascade, dev, vocab, { grid: [0.2, 0.95], tolerance: 100 });
    assert.deepEqual(
      alphas(loose.cascade.passes),
      trained.map((a) => (a < 0.95 ? 0.95 : a)),
    );

    // Against the model unpruned: the floors are its halves' UAS-P without a cascade, which the
    // tuned cascade keeps within the tolerance on each half, and the trial that stopped the climb
    // fell below one of them.
    const unprunedHalves = halves.map(
      (h) => evaluateParser(parser, h, vocab, new PruningCascade()).uasNoPunct,
    );
    const againstUnpruned = loadParser(model);
    const tol = 0.3;
    const u = tuneCascadeAlphas(againstUnpruned, againstUnpruned.cascade, dev, vocab, {
      tolerance: tol,
      reference: "unpruned",
    });
    assert.ok(
      Math.abs(u.reference - evaluateParser(againstUnpruned, dev, vocab, new PruningCascade()).uasNoPunct) <
        1e-9,
    );
    assert.ok(Math.abs(u.before - evaluateParser(loadParser(model), dev, vocab).uasNoPunct) < 1e-9);
    const uEnd = halfScores(againstUnpruned);
    for (let k = 0; k < 2; k++) assert.ok(uEnd[k]! >= unprunedHalves[k]! - tol - 1e-9, `half ${k}`);
    const stops = u.trials.filter((x) => !x.accepted);
    for (const stop of stops) {
      const probe = loadParser(model);
      const probeAlphas = u.passes.map((p) =>
        p.pass < stop.pass ? p.after : p.pass === stop.pass ? stop.alpha : p.before,
      );
      setCascadeAlphas(probe.cascade, probeAlphas);
      const h = halfScores(probe);
      assert.ok(
        h.some((v, k) => v < unprunedHalves[k]! - tol - 1e-9),
        `stop at ${stop.alpha} within every floor`,
      );
    }
    // The cascade-relative search gives `reference` = `before`.
    assert.equal(r.reference, r.before);

    // The CLI writes a copy with the tuned α (the same search: the same values).
    const out = join(dir, "tuned.vpm");
    const tune = (to: string, ...more: string[]) =>
      runCli(["filter", "tune", "--model", model, "--dev", devPath, "--out", to, ...more]);
    const c = tune(out, "--tolerance", "0.5", "--check");
    assert.equal(c.status, 0, c.stderr);
    assert.match(
      c.stderr,
      /check: alpha chosen on the even sentences \([-\d. /]+\): the odd ones' UAS-P [\d.]+ → [\d.]+ \([-+][\d.]+\)/,
    );
    assert.match(c.stderr, /check: alpha chosen on the odd sentences/);
    assert.match(c.stderr, /tuned\.vpm: alpha pass 1 \(vine\) [-\d.]+ → [-\d.]+, pass 2 \(maxmarginal\)/);
    assert.deepEqual(alphas(loadParser(out).cascade.passes), tuned);
    const outU = join(dir, "tuned-u.vpm");
    const cu = tune(outU, "--tolerance", "0.3", "--reference", "unpruned");
    assert.equal(cu.status, 0, cu.stderr);
    assert.match(cu.stderr, /\(without a cascade: [\d.]+\)/);
    assert.deepEqual(alphas(loadParser(outU).cascade.passes), alphas(againstUnpruned.cascade.passes));
    const badRef = tune(join(dir, "bad.vpm"), "--reference", "gold");
    assert.notEqual(badRef.status, 0);
    assert.equal(badRef.stderr.trim().split("\n").length, 1, badRef.stderr);
    assert.match(badRef.stderr, /--reference must be one of cascade, unpruned/);
    assert.ok(!existsSync(join(dir, "bad.vpm")));

    // parse --alpha sets the same α at parse time: the same output as the tuned copy; a first value
    // alone sets the first pass; more values than passes: one line, nothing written.
    const parse = (m: string, o: string, ...more: string[]) =>
      runCli(["parse", "--model", m, "--input", devPath, "--output", o, "--quiet", ...more]);
    const parsed = (m: string, name: string, ...more: string[]) => {
      const r = parse(m, join(dir, name), ...more);
      assert.equal(r.status, 0, r.stderr);
      return readFileSync(join(dir, name), "utf8");
    };
    assert.notDeepEqual(tuned, trained);
    assert.equal(parsed(model, "knob.conllu", "--alpha", tuned.join(",")), parsed(out, "tuned.conllu"));
    const firstOnly = loadParser(model);
    setCascadeAlphas(firstOnly.cascade, [0.9]);
    assert.deepEqual(alphas(firstOnly.cascade.passes), [0.9, trained[1]]);
    assert.throws(
      () => setCascadeAlphas(firstOnly.cascade, [0, 0, 0]),
      /3 value\(s\) given, but the cascade/,
    );
    const tooMany = parse(model, join(dir, "no.conllu"), "--alpha", "0,0,0");
    assert.notEqual(tooMany.status, 0);
    assert.equal(tooMany.stderr.trim().split("\n").length, 1, tooMany.stderr);
    assert.ok(!existsSync(join(dir, "no.conllu")));

    // train --tune-alpha runs the same search after training: the same model, the same α.
    const inTraining = join(dir, "o2t.vpm");
    const tt = trainVine(inTraining, "--tune-alpha", "0.5");
    assert.equal(tt.status, 0, tt.stderr);
    assert.match(tt.stderr, /alpha tuned on dev: vine [-\d.]+ → [-\d.]+, maxmarginal/);
    assert.deepEqual(alphas(loadParser(inTraining).cascade.passes), tuned);
    const noVine = runCli([
      "train",
      "--train",
      trainPath,
      "--dev",
      devPath,
      "--tune-alpha",
      "0.1",
      "--out",
      join(dir, "y.vpm"),
    ]);
    assert.notEqual(noVine.status, 0);
    assert.match(noVine.stderr, /--tune-alpha goes with --prune vine and --dev/);

    // A model without vine or max-marginal passes: one line, no stack trace.
    const plain = join(dir, "o1.vpm");
    assert.equal(
      runCli(["train", "--train", trainPath, "--epochs", "1", "--bits", "14", "--out", plain, "--quiet"])
        .status,
      0,
    );
    const bad = runCli(["filter", "tune", "--model", plain, "--dev", devPath, "--out", join(dir, "x.vpm")]);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /no vine or max-marginal pass to tune/);
    assert.equal(bad.stderr.trim().split("\n").length, 1, bad.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
