import assert from "node:assert/strict";
import { test } from "node:test";
import { speedAccuracyGroups } from "../bench/exp-cascade.js";
import { scatterPlotSvg } from "../bench/svg-plot.js";

test("speed–accuracy groups: one per order, rows labelled by initials and α, α sweeps joined by speed", () => {
  const { groups, key } = speedAccuracyGroups([
    { order: 1, name: "NoPrune", speed: 1, uasP: 84 },
    { order: 1, name: "FirstOnly (top-10)", speed: 0.6, uasP: 84 },
    { order: 2, name: "VineCascade", speed: 1.7, uasP: 85.5 },
    { order: 2, name: "VineCascade α 0.8", speed: 3, uasP: 84 },
    { order: 2, name: "VineCascade α 0.5", speed: 2.3, uasP: 85 },
    { order: 2, name: "Local", speed: 1.3, uasP: 85.4 },
    { order: 1, name: "filters + coarse pass α 0.5", speed: 3.1, uasP: 84.2 },
    { order: 1, name: "Nice Place", speed: 2, uasP: 83 },
  ]);
  assert.deepEqual(
    groups.map((g) => g.name),
    ["order 1", "order 2"],
  );
  assert.deepEqual(
    groups[0]!.points.map((p) => p.label),
    ["NP", "FO", "fcp α 0.5", "NP2"],
  );
  assert.deepEqual(groups[0]!.curves, []);
  assert.deepEqual(
    groups[1]!.points.map((p) => p.label),
    ["VC", "VC α 0.8", "VC α 0.5", "L"],
  );
  // The three VineCascade rows, slowest first: 1.7, 2.3, 3.
  assert.deepEqual(groups[1]!.curves, [[0, 2, 1]]);
  assert.deepEqual(key, [
    "NP: NoPrune",
    "FO: FirstOnly (top-10)",
    "VC: VineCascade",
    "L: Local",
    "fcp: filters + coarse pass",
    "NP2: Nice Place",
  ]);
});

test("scatter plot: a marker and an escaped label per point, a dashed line per curve, the key beside the legend", () => {
  const svg = scatterPlotSvg(
    { title: "t", xLabel: "x", yLabel: "y", x: [0, 4], y: [80, 90] },
    [
      {
        name: "order 1",
        points: [
          { x: 1, y: 84, label: "A<B" },
          { x: 2, y: 85, label: "C" },
          { x: 3, y: 86, label: "D" },
        ],
        curves: [[0, 2], [1]],
      },
    ],
    ["A: first & last"],
  );
  assert.match(svg, /^<svg /);
  assert.match(svg, /<\/svg>\n$/);
  assert.equal(svg.match(/<circle /g)!.length, 4); // three points and the legend marker
  assert.equal(svg.match(/stroke-dasharray/g)!.length, 1); // a one-point curve draws nothing
  assert.match(svg, />A&lt;B</);
  assert.match(svg, />A: first &amp; last</);
  assert.doesNotMatch(svg, /A<B/);
});
