// Small dependency-free SVG plots for bench figures: line plots (e.g. coverage against reduction per
// filter) and labelled scatter plots (e.g. speed against accuracy per pruning method and order).

/** One named series of (x, y) points, drawn as a polyline with markers. */
export interface PlotSeries {
  name: string;
  points: [number, number][];
}

/** Axis ranges and labels of a plot. */
export interface PlotAxes {
  title: string;
  xLabel: string;
  yLabel: string;
  x: [number, number];
  y: [number, number];
}

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"];

/** Escapes text for SVG. */
function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** About five round tick values covering [lo, hi]. */
function ticks(lo: number, hi: number): number[] {
  const span = hi - lo;
  const raw = span / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= 6) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toFixed(6)));
  return out;
}

/** The frame both plots share: document, title, axes, ticks and axis labels, and the coordinate maps. */
function frame(
  axes: PlotAxes,
  width: number,
  height: number,
  right: number,
): {
  out: string[];
  sx: (x: number) => number;
  sy: (y: number) => number;
  m: { left: number; top: number };
  pw: number;
  ph: number;
} {
  const m = { left: 64, right, top: 36, bottom: 52 };
  const pw = width - m.left - m.right;
  const ph = height - m.top - m.bottom;
  const sx = (x: number) => m.left + ((x - axes.x[0]) / (axes.x[1] - axes.x[0])) * pw;
  const sy = (y: number) => m.top + ph - ((y - axes.y[0]) / (axes.y[1] - axes.y[0])) * ph;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${m.left + pw / 2}" y="20" text-anchor="middle" font-size="14">${esc(axes.title)}</text>`,
    `<defs><clipPath id="plot"><rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}"/></clipPath></defs>`,
    `<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`,
  ];
  for (const t of ticks(axes.x[0], axes.x[1])) {
    const x = sx(t).toFixed(1);
    out.push(`<line x1="${x}" y1="${m.top}" x2="${x}" y2="${m.top + ph}" stroke="#eee"/>`);
    out.push(`<text x="${x}" y="${m.top + ph + 16}" text-anchor="middle">${t}</text>`);
  }
  for (const t of ticks(axes.y[0], axes.y[1])) {
    const y = sy(t).toFixed(1);
    out.push(`<line x1="${m.left}" y1="${y}" x2="${m.left + pw}" y2="${y}" stroke="#eee"/>`);
    out.push(`<text x="${m.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${t}</text>`);
  }
  out.push(
    `<text x="${m.left + pw / 2}" y="${height - 12}" text-anchor="middle">${esc(axes.xLabel)}</text>`,
    `<text x="16" y="${m.top + ph / 2}" text-anchor="middle" transform="rotate(-90 16 ${m.top + ph / 2})">${esc(axes.yLabel)}</text>`,
  );
  return { out, sx, sy, m, pw, ph };
}

/** Renders the series as a standalone SVG document (points outside the axes are clipped). */
export function linePlotSvg(axes: PlotAxes, series: PlotSeries[], baseWidth = 640, height = 440): string {
  // baseWidth has a 170 px legend column; it widens, and the document with it, for long series
  // names (about 6.6 px a character at 12 px).
  const longest = series.reduce((l, s) => Math.max(l, s.name.length), 0);
  const right = Math.max(170, 44 + Math.ceil(6.6 * longest));
  const width = baseWidth + right - 170;
  const { out, sx, sy, m, pw } = frame(axes, width, height, right);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const pts = [...s.points].sort((a, b) => a[0] - b[0]);
    const path = pts.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(" ");
    out.push(`<g clip-path="url(#plot)">`);
    if (pts.length > 1)
      out.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    for (const [x, y] of pts)
      out.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${color}"/>`);
    out.push(`</g>`);
    const ly = m.top + 10 + i * 18;
    out.push(
      `<line x1="${m.left + pw + 12}" y1="${ly}" x2="${m.left + pw + 32}" y2="${ly}" stroke="${color}" stroke-width="2"/>`,
      `<text x="${m.left + pw + 38}" y="${ly}" dominant-baseline="middle">${esc(s.name)}</text>`,
    );
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

/** One point of a scatter plot, with the short label written beside it. */
export interface ScatterPoint {
  x: number;
  y: number;
  label: string;
}

/** A named group of scatter points (one colour); `curves` lists index runs drawn joined by a thin line. */
export interface ScatterSeries {
  name: string;
  points: ScatterPoint[];
  curves: number[][];
}

/**
 * Renders the groups as a scatter plot: each point a marker in its group's colour with its label
 * beside it, each curve of a group a thin line through its points in the order given, and a legend
 * of the groups followed by `key` lines (e.g. what the labels stand for).
 */
export function scatterPlotSvg(
  axes: PlotAxes,
  groups: ScatterSeries[],
  key: string[] = [],
  height = 440,
): string {
  const longest = [...groups.map((g) => g.name), ...key].reduce((l, s) => Math.max(l, s.length), 0);
  const right = Math.max(170, 44 + Math.ceil(6.6 * longest));
  const width = 640 + right - 170;
  const { out, sx, sy, m, pw } = frame(axes, width, height, right);
  groups.forEach((g, i) => {
    const color = COLORS[i % COLORS.length]!;
    out.push(`<g clip-path="url(#plot)">`);
    for (const c of g.curves)
      if (c.length > 1) {
        const path = c
          .map((j) => `${sx(g.points[j]!.x).toFixed(1)},${sy(g.points[j]!.y).toFixed(1)}`)
          .join(" ");
        out.push(
          `<polyline points="${path}" fill="none" stroke="${color}" stroke-width="1" stroke-dasharray="4 3"/>`,
        );
      }
    for (const p of g.points) {
      const x = sx(p.x).toFixed(1);
      const y = sy(p.y).toFixed(1);
      out.push(`<circle cx="${x}" cy="${y}" r="3" fill="${color}"/>`);
      out.push(
        `<text x="${(sx(p.x) + 5).toFixed(1)}" y="${(sy(p.y) - 5).toFixed(1)}" font-size="10" fill="${color}">${esc(p.label)}</text>`,
      );
    }
    out.push(`</g>`);
    const ly = m.top + 10 + i * 18;
    out.push(
      `<circle cx="${m.left + pw + 22}" cy="${ly}" r="3" fill="${color}"/>`,
      `<text x="${m.left + pw + 38}" y="${ly}" dominant-baseline="middle">${esc(g.name)}</text>`,
    );
  });
  key.forEach((line, j) => {
    const ly = m.top + 10 + (groups.length + 1 + j) * 16;
    out.push(
      `<text x="${m.left + pw + 12}" y="${ly}" dominant-baseline="middle" font-size="11">${esc(line)}</text>`,
    );
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}
