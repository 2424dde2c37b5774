import assert from "node:assert/strict";
import { test } from "node:test";
import {
  arcDiagramSvg,
  arcLevels,
  escapeXml,
  pruningGridSvg,
  removalStages,
  type StageView,
  stageColour,
  type TreeView,
} from "../src/view/render.js";

/** "The <odd> cat sat ." with a nested arc (cat→The over cat→<odd>); word 2's form needs escaping. */
const ODD = `a<b>&"c'`;
const tree: TreeView = {
  forms: ["", "The", ODD, "cat", "sat", "."],
  upos: ["", "DET", "ADJ", "NOUN", "VERB", "PUNCT"],
  heads: Int32Array.from([-1, 3, 3, 4, 0, 4]),
  deprels: ["", "det", "amod", "nsubj", "root", "punct"],
};

/** Checks that every tag of an SVG string is closed in order (a crude well-formedness check). */
function assertBalanced(svg: string): void {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^<>]*?(\/?)>/g)) {
    if (m[3] === "/") continue;
    if (m[1] === "/") assert.equal(stack.pop(), m[2], `closing </${m[2]}>`);
    else stack.push(m[2]!);
  }
  assert.deepEqual(stack, []);
  // Nothing but tags may hold a raw "<" or ">".
  assert.doesNotMatch(svg.replace(/<\/?[a-zA-Z][^<>]*>/g, ""), /[<>]/);
}

/** The arcs of a diagram as its `<g class="arc">` data attributes give them. */
function arcsOf(svg: string): { head: number; dep: number; deprel: string; level: number; body: string }[] {
  const re =
    /<g class="arc[^"]*" data-head="(\d+)" data-dep="(\d+)" data-deprel="([^"]*)" data-level="(\d+)">([\s\S]*?)<\/g>/g;
  return [...svg.matchAll(re)].map((m) => ({
    head: Number(m[1]),
    dep: Number(m[2]),
    deprel: m[3]!,
    level: Number(m[4]),
    body: m[5]!,
  }));
}

/** x of each word's `<text class="word">`, by word id. */
function wordXs(svg: string): Map<number, number> {
  const xs = new Map<number, number>();
  for (const m of svg.matchAll(/<text class="word" data-id="(\d+)" x="([\d.]+)"/g))
    xs.set(Number(m[1]), Number(m[2]));
  return xs;
}

test("escapeXml escapes the five XML specials and nothing else", () => {
  assert.equal(escapeXml(`<a href="x">&'é`), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;é");
});

test("the arc diagram has one arc per word, from its head to it, with its relation; the root marked", () => {
  const svg = arcDiagramSvg(tree);
  assertBalanced(svg);
  const arcs = arcsOf(svg);
  assert.equal(arcs.length, 5);
  const byDep = new Map(arcs.map((a) => [a.dep, a]));
  for (let m = 1; m <= 5; m++) {
    const a = byDep.get(m);
    assert.ok(a !== undefined, `an arc into word ${m}`);
    assert.equal(a.head, tree.heads[m]);
    assert.equal(a.deprel, tree.deprels[m]);
    assert.match(a.body, new RegExp(`>(ROOT · )?${a.deprel}</text>`));
  }
  const roots = arcs.filter((a) => a.head === 0);
  assert.deepEqual(
    roots.map((a) => a.dep),
    [4],
  );
  assert.match(svg, /<g class="arc root" data-head="0" data-dep="4"/);
  // Each arc ends in an arrowhead whose tip is at its dependent's word, and starts near its head's.
  const xs = wordXs(svg);
  assert.equal(xs.size, 5);
  for (const a of arcs) {
    const paths = [...a.body.matchAll(/<path d="M([\d.]+),([\d.]+)/g)].map((m) => Number(m[1]));
    assert.equal(paths.length, 2, "a line and an arrowhead");
    assert.equal(paths[1], xs.get(a.dep), `arrow tip of ${a.head}→${a.dep}`);
    if (a.head > 0) assert.ok(Math.abs(paths[0]! - xs.get(a.head)!) <= 5, `start of ${a.head}→${a.dep}`);
  }
  // Words in order, left to right, each with its UPOS.
  for (let i = 1; i < 5; i++) assert.ok(xs.get(i)! < xs.get(i + 1)!);
  for (let i = 1; i <= 5; i++)
    assert.match(svg, new RegExp(`<text class="tag" data-id="${i}"[^>]*>${tree.upos[i]}</text>`));
});

test("the arc diagram escapes forms, tags and relations", () => {
  const odd: TreeView = {
    ...tree,
    upos: ["", "DET", "X<&>", "NOUN", "VERB", "PUNCT"],
    deprels: ["", "det", "amod", "nsubj", "root", `p"un<ct>`],
  };
  const svg = arcDiagramSvg(odd);
  assertBalanced(svg);
  assert.ok(svg.includes(`>a&lt;b&gt;&amp;&quot;c&#39;</text>`));
  assert.ok(svg.includes(">X&lt;&amp;&gt;</text>"));
  assert.ok(svg.includes(`data-deprel="p&quot;un&lt;ct&gt;"`));
  assert.ok(!svg.includes("<b>"));
  assert.ok(!svg.includes("\"c'"));
});

test("lemmas and FEATS, when the sentence has them, are each word's tooltip (escaped); without them, none", () => {
  assert.ok(!arcDiagramSvg(tree).includes("<title>"));
  const lemmas = ["", "the", "a<b>", "cat", "sleep", "."];
  const feats = ["", "Definite=Def", "_", "Number=Sing", "Tense=Past", "_"];
  const svg = arcDiagramSvg({ ...tree, lemmas, feats });
  assertBalanced(svg);
  const titles = [...svg.matchAll(/<text class="word" data-id="(\d+)"[^>]*><title>([^<]*)<\/title>/g)];
  assert.equal(titles.length, 5);
  for (const [, id, title] of titles)
    assert.equal(title, escapeXml(`lemma ${lemmas[Number(id)]} · ${feats[Number(id)]}`));
  // The words' positions do not move.
  assert.deepEqual(wordXs(svg), wordXs(arcDiagramSvg(tree)));
});

test("nested arcs get increasing heights", () => {
  const svg = arcDiagramSvg(tree);
  const level = new Map(arcsOf(svg).map((a) => [`${a.head}>${a.dep}`, a.level]));
  assert.equal(level.get("3>2"), 1);
  assert.equal(level.get("3>1"), 2, "cat→The spans cat→<odd>");
  assert.equal(level.get("4>3"), 1);
  assert.equal(level.get("4>5"), 1);
  assert.ok(level.get("0>4")! > 2, "the root's mark above every arc");
  // A fan of arcs from word 1: each one level above the one it spans.
  const fan: TreeView = {
    forms: ["", "a", "b", "c", "d"],
    upos: ["", "X", "X", "X", "X"],
    heads: Int32Array.from([-1, 0, 1, 1, 1]),
    deprels: ["", "root", "r", "r", "r"],
  };
  assert.deepEqual(
    arcLevels(fan).map((a) => [a.dep, a.level]),
    [
      [2, 1],
      [3, 2],
      [4, 3],
    ],
  );
  // Drawn higher: each label's y is above (smaller than) the one below it.
  const labelY = arcsOf(arcDiagramSvg(fan))
    .filter((a) => a.head === 1)
    .map((a) => Number(/<text x="[\d.]+" y="([\d.]+)"/.exec(a.body)![1]));
  assert.equal(labelY.length, 3);
  assert.ok(labelY[0]! > labelY[1]! && labelY[1]! > labelY[2]!, `label heights ${labelY.join(", ")}`);
});

/** A stage over n tokens allowing exactly the arcs `allowed(h, m)` says (never the diagonal). */
function stage(name: string, n: number, allowed: (h: number, m: number) => boolean): StageView {
  const size = n + 1;
  const bits = new Uint8Array(size * size);
  let kept = 0;
  for (let h = 0; h <= n; h++)
    for (let m = 1; m <= n; m++)
      if (h !== m && allowed(h, m)) {
        bits[h * size + m] = 1;
        kept++;
      }
  return { name, description: name === "all arcs" ? "" : `the ${name} pass`, bits, kept };
}

const small: TreeView = {
  forms: ["", "x", "y", "z"],
  upos: ["", "X", "Y", "Z"],
  heads: Int32Array.from([-1, 2, 0, 2]),
  deprels: ["", "a", "root", "b"],
};
const all = stage("all arcs", 3, () => true);
// The first pass keeps arcs of length 1 and the root's; the second also drops the root's arcs but to y.
const first = stage("lenvine", 3, (h, m) => h === 0 || Math.abs(h - m) === 1);
const second = stage(
  "rules",
  3,
  (h, m) => (h === 0 ? m === 2 : Math.abs(h - m) === 1) && !(h === 1 && m === 2),
);

/** Cells of a grid by "h>m": their stage, fill and whether chosen. */
function cellsOf(svg: string): Map<string, { stage: string; fill: string; chosen: boolean }> {
  const cells = new Map<string, { stage: string; fill: string; chosen: boolean }>();
  const re =
    /<rect class="cell" data-head="(\d+)" data-dep="(\d+)" data-stage="(\w+)"( data-chosen="1")?[^>]* fill="([^"]+)"/g;
  for (const m of svg.matchAll(re))
    cells.set(`${m[1]}>${m[2]}`, { stage: m[3]!, fill: m[5]!, chosen: m[4] !== undefined });
  return cells;
}

test("the pruning grid colours each cell by the first stage that lacks its arc", () => {
  assert.equal(first.kept, 7);
  assert.equal(second.kept, 4);
  const svg = pruningGridSvg(small, [all, first, second]);
  assertBalanced(svg);
  const cells = cellsOf(svg);
  assert.equal(cells.size, 4 * 3, "(n + 1) × n cells");
  const expected: Record<string, string> = {
    "0>1": "2",
    "0>2": "kept",
    "0>3": "2",
    "1>1": "0",
    "1>2": "2",
    "1>3": "1",
    "2>1": "kept",
    "2>2": "0",
    "2>3": "kept",
    "3>1": "1", // removed by the first pass and absent from the second too: still the first's
    "3>2": "kept",
    "3>3": "0",
  };
  for (const [cell, s] of Object.entries(expected)) {
    const c = cells.get(cell)!;
    assert.equal(c.stage, s, cell);
    assert.equal(c.fill, stageColour(s === "kept" ? -1 : Number(s)), cell);
  }
  assert.notEqual(stageColour(1), stageColour(2));
  assert.notEqual(stageColour(-1), stageColour(1));
  const r = removalStages(3, [all, first, second]);
  assert.equal(r[3 * 4 + 1], 1);
  assert.equal(r[2 * 4 + 3], -1);
  assert.throws(() => removalStages(4, [all]), RangeError);
});

test("the pruning grid outlines the parser's arcs (dashed when a pass had removed one)", () => {
  const svg = pruningGridSvg(small, [all, first, second]);
  const chosen = [...cellsOf(svg)].filter(([, c]) => c.chosen).map(([k]) => k);
  assert.deepEqual(chosen.sort(), ["0>2", "2>1", "2>3"]);
  const outlines = [...svg.matchAll(/<rect class="chosen" data-head="(\d+)" data-dep="(\d+)"([^>]*)>/g)];
  assert.deepEqual(outlines.map((m) => `${m[1]}>${m[2]}`).sort(), ["0>2", "2>1", "2>3"]);
  for (const m of outlines) assert.doesNotMatch(m[3]!, /dasharray/);
  // A fallback tree using arc 3→1, which the first pass removed.
  const fallback: TreeView = { ...small, heads: Int32Array.from([-1, 3, 0, 2]) };
  const out = pruningGridSvg(fallback, [all, first, second]);
  assert.match(out, /<rect class="chosen" data-head="3" data-dep="1"[^>]*stroke-dasharray/);
  assert.doesNotMatch(out, /<rect class="chosen" data-head="2" data-dep="3"[^>]*stroke-dasharray/);
});

test("the pruning legend names each stage and the share of the n² arcs it leaves", () => {
  const svg = pruningGridSvg(small, [all, first, second]);
  const entries = [
    ...svg.matchAll(
      /<g class="legend-entry" data-stage="(\d+)" data-kept="(\d+)" data-share="([\d.]+)">([\s\S]*?)<\/g>/g,
    ),
  ];
  assert.deepEqual(
    entries.map((e) => [Number(e[1]), Number(e[2]), Number(e[3])]),
    [
      [0, 9, 1],
      [1, 7, Number((7 / 9).toFixed(6))],
      [2, 4, Number((4 / 9).toFixed(6))],
    ],
  );
  assert.match(entries[0]![4]!, />all arcs: 9 of 9 arcs left \(100\.0%\)</);
  assert.match(entries[1]![4]!, />lenvine \(the lenvine pass\): 7 of 9 arcs left \(77\.8%\)</);
  assert.match(entries[2]![4]!, />rules \(the rules pass\): 4 of 9 arcs left \(44\.4%\)</);
  // Each swatch has its stage's colour.
  assert.ok(entries[1]![4]!.includes(`fill="${stageColour(1)}"`));
  assert.ok(entries[2]![4]!.includes(`fill="${stageColour(2)}"`));
  assert.match(svg, /<g class="legend-entry" data-stage="kept">/);
});

test("a long pass description is cut in the legend and whole in its tooltip; names are escaped", () => {
  const long = { ...first, name: "<odd & name>", description: "d".repeat(200) };
  const svg = pruningGridSvg(small, [all, long]);
  assertBalanced(svg);
  assert.ok(svg.includes(`<title>${"d".repeat(200)}</title>`));
  assert.ok(svg.includes("&lt;odd &amp; name&gt; ("));
  assert.match(svg, /\(d{71}…\): 7 of 9 arcs left/);
});
