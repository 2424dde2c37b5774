/**
 * SVG views of a parsed sentence and of what the pruning cascade did to it, built as strings (no DOM,
 * no Node.js: they run in the browser page of `vineparse view` and in tests alike).
 */

/** What the views need of a parsed sentence (an `AnnotatedSentence` has it): arrays 1-based, index 0 unused. */
export interface TreeView {
  /** forms[1..n]. */
  forms: readonly string[];
  /** upos[1..n]. */
  upos: readonly string[];
  /** heads[m] for m = 1..n (0 = the root). */
  heads: ArrayLike<number>;
  /** deprels[1..n]. */
  deprels: readonly string[];
  /** lemmas[1..n] and feats[1..n], when the pipeline made them: shown as each word's tooltip. */
  lemmas?: readonly string[];
  feats?: readonly string[];
}

/** What the pruning view needs of one stage of the cascade (a `PruningStage` has it). */
export interface StageView {
  /** The stage's name ("all arcs", then the pass's). */
  name: string;
  /** Longer description of the pass (optional; shown after the name). */
  description?: string;
  /** (n + 1)² cells: bits[h · (n + 1) + m] = 1 while arc h→m is allowed. */
  bits: Uint8Array;
  /** Arcs allowed (of n² candidates). */
  kept: number;
}

/** Escapes text for XML/HTML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Approximate width in pixels of `s` at the views' 13 px sans-serif font (no layout engine in Node). */
function textWidth(s: string, px = 13): number {
  return [...s].length * px * 0.6;
}

/** Number of words of a tree view. */
function wordCount(t: TreeView): number {
  return t.forms.length - 1;
}

/** One dependency arc of the diagram, with its level (height in rows above the words). */
export interface ArcLayout {
  head: number;
  dep: number;
  /** 1 for arcs between neighbours with nothing under them; always above every arc nested inside it. */
  level: number;
}

/**
 * Levels of the non-root arcs of a tree: an arc's level is one more than the highest level of the
 * arcs whose span lies within its own (0 if none), so that nested arcs never overlap.
 */
export function arcLevels(t: TreeView): ArcLayout[] {
  const n = wordCount(t);
  const arcs: { head: number; dep: number; lo: number; hi: number; level: number }[] = [];
  for (let m = 1; m <= n; m++) {
    const h = t.heads[m]!;
    if (h <= 0 || h > n || h === m) continue;
    arcs.push({ head: h, dep: m, lo: Math.min(h, m), hi: Math.max(h, m), level: 0 });
  }
  const bySpan = arcs.slice().sort((a, b) => a.hi - a.lo - (b.hi - b.lo) || a.lo - b.lo);
  for (let i = 0; i < bySpan.length; i++) {
    const a = bySpan[i]!;
    let below = 0;
    for (let j = 0; j < i; j++) {
      const b = bySpan[j]!;
      if (b.lo >= a.lo && b.hi <= a.hi && b.level > below) below = b.level;
    }
    a.level = below + 1;
  }
  return arcs.map(({ head, dep, level }) => ({ head, dep, level }));
}

/** Pixel constants of the arc diagram. */
const ARC = { margin: 12, gap: 18, minWidth: 36, level: 26, top: 24, wordY: 16, tagY: 34, bottom: 44 };

/**
 * An SVG arc diagram of a parsed sentence: words left to right with their UPOS below, each arc
 * drawn above the words from head to dependent (arrowhead at the dependent) with its relation, arcs
 * over longer spans higher, and the root's child marked by a vertical arrow labelled with its relation.
 * Every arc is a `<g class="arc" data-head data-dep data-deprel data-level>`; words are
 * `<text class="word" data-id>`.
 */
export function arcDiagramSvg(t: TreeView): string {
  const n = wordCount(t);
  const widths: number[] = [0];
  for (let i = 1; i <= n; i++) {
    widths.push(
      Math.max(ARC.minWidth, textWidth(t.forms[i] ?? ""), textWidth(t.upos[i] ?? "", 11)) + ARC.gap,
    );
  }
  const x: number[] = [0];
  let right = ARC.margin;
  for (let i = 1; i <= n; i++) {
    x.push(right + widths[i]! / 2);
    right += widths[i]!;
  }
  const arcs = arcLevels(t);
  let maxLevel = 0;
  for (const a of arcs) maxLevel = Math.max(maxLevel, a.level);
  const rootLevel = maxLevel + 1;
  const base = ARC.top + rootLevel * ARC.level; // y where arcs end, just above the words
  const width = Math.ceil(right + ARC.margin);
  const height = Math.ceil(base + ARC.bottom);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="arc-diagram" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13" role="img" ` +
      `aria-label="${escapeXml(`dependency tree of: ${t.forms.slice(1).join(" ")}`)}">`,
  );
  // Where arcs meet a word: spread a little around its centre so that they do not all meet at a point.
  const offset = (word: number, toward: number): number => (toward === word ? 0 : toward > word ? 4 : -4);
  for (const a of arcs) {
    const x1 = x[a.head]! + offset(a.head, a.dep);
    const x2 = x[a.dep]!;
    const y = base - a.level * ARC.level;
    const label = t.deprels[a.dep] ?? "";
    out.push(
      `<g class="arc" data-head="${a.head}" data-dep="${a.dep}" data-deprel="${escapeXml(label)}" data-level="${a.level}">`,
      `<path d="M${f(x1)},${f(base)} C${f(x1)},${f(y)} ${f(x2)},${f(y)} ${f(x2)},${f(base - 5)}" fill="none" stroke="currentColor" stroke-width="1.3"/>`,
      arrowhead(x2, base),
      `<text x="${f((x1 + x2) / 2)}" y="${f(base - a.level * ARC.level * 0.75 - 3)}" text-anchor="middle" font-size="11" fill="#1f4e99" stroke="#fff" stroke-width="3" paint-order="stroke">${escapeXml(label)}</text>`,
      `</g>`,
    );
  }
  for (let m = 1; m <= n; m++) {
    if (t.heads[m] !== 0) continue;
    const label = t.deprels[m] ?? "";
    const top = base - rootLevel * ARC.level + 10;
    out.push(
      `<g class="arc root" data-head="0" data-dep="${m}" data-deprel="${escapeXml(label)}" data-level="${rootLevel}">`,
      `<path d="M${f(x[m]!)},${f(top)} L${f(x[m]!)},${f(base - 5)}" fill="none" stroke="#b2182b" stroke-width="1.3"/>`,
      arrowhead(x[m]!, base, "#b2182b"),
      `<text x="${f(x[m]!)}" y="${f(top - 3)}" text-anchor="middle" font-size="11" fill="#b2182b">ROOT · ${escapeXml(label)}</text>`,
      `</g>`,
    );
  }
  for (let i = 1; i <= n; i++) {
    const morph =
      t.lemmas === undefined || t.feats === undefined
        ? ""
        : `<title>${escapeXml(`lemma ${t.lemmas[i] ?? "_"} · ${t.feats[i] ?? "_"}`)}</title>`;
    out.push(
      `<text class="word" data-id="${i}" x="${f(x[i]!)}" y="${f(base + ARC.wordY)}" text-anchor="middle">${morph}${escapeXml(t.forms[i] ?? "")}</text>`,
      `<text class="tag" data-id="${i}" x="${f(x[i]!)}" y="${f(base + ARC.tagY)}" text-anchor="middle" font-size="11" fill="#666">${escapeXml(t.upos[i] ?? "")}</text>`,
    );
  }
  out.push(`</svg>`);
  return out.join("\n");
}

/** A downward arrowhead whose tip is at (x, y). */
function arrowhead(x: number, y: number, fill = "currentColor"): string {
  return `<path d="M${f(x)},${f(y)} L${f(x - 4)},${f(y - 7)} L${f(x + 4)},${f(y - 7)} Z" fill="${fill}"/>`;
}

/** A coordinate with at most one decimal. */
function f(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** Colour of cells that are not candidate arcs (the diagonal). */
const NO_ARC_COLOUR = "#f0f0f0";
/** Colour of arcs kept through every stage. */
const KEPT_COLOUR = "#1a9850";
/** Colours of arcs removed by the 1st, 2nd, … pass (cycled). */
const REMOVED_COLOURS = [
  "#fdae61",
  "#abd9e9",
  "#f4a6d7",
  "#fee090",
  "#c2a5cf",
  "#d9d9d9",
  "#f46d43",
  "#74add1",
];

/** Colour of the arcs removed by stage `s` (≥ 1); -1 = kept to the end; 0 = never a candidate. */
export function stageColour(s: number): string {
  if (s < 0) return KEPT_COLOUR;
  if (s === 0) return NO_ARC_COLOUR;
  return REMOVED_COLOURS[(s - 1) % REMOVED_COLOURS.length]!;
}

/**
 * For every cell h·(n+1)+m, the index of the first stage that no longer allows arc h→m (0 for cells
 * that are no arc at all: the diagonal and column 0, or arcs the first stage lacks), or -1 for arcs
 * every stage allows. Throws a RangeError if a stage's mask is not (n + 1)² cells.
 */
export function removalStages(n: number, stages: readonly StageView[]): Int16Array {
  const size = n + 1;
  const removed = new Int16Array(size * size).fill(-1);
  for (let h = 0; h <= n; h++) {
    removed[h * size] = 0;
    removed[h * size + h] = 0;
  }
  for (let s = 0; s < stages.length; s++) {
    const bits = stages[s]!.bits;
    if (bits.length !== size * size)
      throw new RangeError(
        `removalStages: stage "${stages[s]!.name}" has ${bits.length} cells, expected ${size * size}`,
      );
    for (let c = 0; c < bits.length; c++) if (bits[c] === 0 && removed[c] === -1) removed[c] = s;
  }
  return removed;
}

/** Share of the n² candidate arcs a stage allows, in [0, 1] (0 for an empty sentence). */
export function stageShare(n: number, stage: StageView): number {
  return n === 0 ? 0 : stage.kept / (n * n);
}

/** First line of the pruning grid's legend. */
const LEGEND_TITLE = "Cell colour: the stage that removed the arc (grey: h = m, no arc)";
/** Last line of the pruning grid's legend. */
const LEGEND_KEPT = "kept by every stage; the parser's arcs outlined (dashed: a removed arc, fallback)";

/** Longest pass description shown in the legend (the whole one is the entry's tooltip). */
const DESCRIPTION_CHARS = 72;

/** Pixel constants of the pruning grid. */
const GRID = { cell: 16, margin: 10, legendRow: 18 };

/**
 * An SVG grid of the candidate arcs of a sentence: rows are heads 0..n (ROOT first), columns
 * modifiers 1..n; each cell (`<rect class="cell" data-head data-dep data-stage>`) is coloured by the
 * first stage that removed its arc (`data-stage`, see `removalStages`; "kept" for arcs kept to the
 * end), and the parser's chosen arcs are outlined (`data-chosen="1"`). Below the grid, a legend
 * (`<g class="legend-entry" data-stage data-kept data-share>`) gives each stage's name and the share
 * of the n² arcs it leaves.
 */
export function pruningGridSvg(t: TreeView, stages: readonly StageView[]): string {
  const n = wordCount(t);
  const size = n + 1;
  const removed = removalStages(n, stages);
  const label = (i: number): string => (i === 0 ? "ROOT" : `${i} ${t.forms[i] ?? ""}`);
  let rowLabelWidth = 0;
  for (let h = 0; h <= n; h++) rowLabelWidth = Math.max(rowLabelWidth, textWidth(label(h), 11));
  let colLabelHeight = 0;
  for (let m = 1; m <= n; m++) colLabelHeight = Math.max(colLabelHeight, textWidth(label(m), 11));
  const left = GRID.margin + Math.ceil(rowLabelWidth) + 6;
  const top = GRID.margin + Math.ceil(colLabelHeight) + 6;
  const gridBottom = top + size * GRID.cell;
  const legend: {
    title: string;
    colour: string;
    text: string;
    stage: number;
    kept: number;
    share: number;
  }[] = [];
  for (let s = 0; s < stages.length; s++) {
    const st = stages[s]!;
    const share = stageShare(n, st);
    const full = st.description ?? "";
    const short =
      [...full].length > DESCRIPTION_CHARS ? `${[...full].slice(0, DESCRIPTION_CHARS - 1).join("")}…` : full;
    const desc = short === "" ? "" : ` (${short})`;
    legend.push({
      title: full,
      // A stage's swatch is the colour of the arcs it removes; the last stage's arcs are the kept ones.
      colour: s === 0 ? NO_ARC_COLOUR : stageColour(s),
      text: `${st.name}${desc}: ${st.kept} of ${n * n} arcs left (${(share * 100).toFixed(1)}%)`,
      stage: s,
      kept: st.kept,
      share,
    });
  }
  let legendWidth = Math.max(textWidth(LEGEND_TITLE, 12), 20 + textWidth(LEGEND_KEPT, 12));
  for (const e of legend) legendWidth = Math.max(legendWidth, 20 + textWidth(e.text, 12));
  const width = Math.ceil(Math.max(left + n * GRID.cell, GRID.margin + legendWidth) + GRID.margin);
  const height = Math.ceil(gridBottom + 12 + (legend.length + 2) * GRID.legendRow + GRID.margin);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="pruning-grid" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11" role="img" ` +
      `aria-label="candidate arcs by pruning stage">`,
  );
  for (let m = 1; m <= n; m++) {
    const cx = left + (m - 1) * GRID.cell + GRID.cell / 2 + 4;
    out.push(
      `<text class="col-label" data-dep="${m}" transform="translate(${f(cx)},${f(top - 4)}) rotate(-90)">${escapeXml(label(m))}</text>`,
    );
  }
  for (let h = 0; h <= n; h++) {
    const cy = top + h * GRID.cell + GRID.cell / 2 + 4;
    out.push(
      `<text class="row-label" data-head="${h}" x="${f(left - 4)}" y="${f(cy)}" text-anchor="end">${escapeXml(label(h))}</text>`,
    );
  }
  const chosen: string[] = [];
  for (let h = 0; h <= n; h++) {
    for (let m = 1; m <= n; m++) {
      const s = removed[h * size + m]!;
      const x = left + (m - 1) * GRID.cell;
      const y = top + h * GRID.cell;
      const stage = s < 0 ? "kept" : String(s);
      const what =
        h === m ? "no arc" : s < 0 ? "kept by every stage" : `removed by ${stages[s]?.name ?? "?"}`;
      const isChosen = h !== m && t.heads[m] === h;
      out.push(
        `<rect class="cell" data-head="${h}" data-dep="${m}" data-stage="${stage}"${isChosen ? ' data-chosen="1"' : ""} ` +
          `x="${x}" y="${y}" width="${GRID.cell}" height="${GRID.cell}" fill="${stageColour(s)}" stroke="#fff" stroke-width="1">` +
          `<title>${escapeXml(`${label(h)} → ${label(m)}: ${what}${isChosen ? " (parser's arc)" : ""}`)}</title></rect>`,
      );
      if (isChosen) {
        chosen.push(
          `<rect class="chosen" data-head="${h}" data-dep="${m}" x="${x + 1.5}" y="${y + 1.5}" width="${GRID.cell - 3}" ` +
            `height="${GRID.cell - 3}" fill="none" stroke="#000" stroke-width="2.5"${s >= 0 ? ' stroke-dasharray="3 2"' : ""}/>`,
        );
      }
    }
  }
  // Outlines after every cell, so that no neighbouring cell paints over them.
  out.push(...chosen);
  let y = gridBottom + 12;
  out.push(
    `<text class="legend-title" x="${GRID.margin}" y="${y + 10}" font-size="12">${LEGEND_TITLE}</text>`,
  );
  y += GRID.legendRow;
  for (const e of legend) {
    out.push(
      `<g class="legend-entry" data-stage="${e.stage}" data-kept="${e.kept}" data-share="${e.share.toFixed(6)}">`,
      e.title === "" ? "" : `<title>${escapeXml(e.title)}</title>`,
      `<rect x="${GRID.margin}" y="${y}" width="12" height="12" fill="${e.colour}" stroke="#999" stroke-width="0.5"/>`,
      `<text x="${GRID.margin + 18}" y="${y + 10}" font-size="12">${escapeXml(e.text)}</text>`,
      `</g>`,
    );
    y += GRID.legendRow;
  }
  out.push(
    `<g class="legend-entry" data-stage="kept">`,
    `<rect x="${GRID.margin}" y="${y}" width="12" height="12" fill="${KEPT_COLOUR}" stroke="#000" stroke-width="2"/>`,
    `<text x="${GRID.margin + 18}" y="${y + 10}" font-size="12">${LEGEND_KEPT}</text>`,
    `</g>`,
  );
  out.push(`</svg>`);
  return out.join("\n");
}
