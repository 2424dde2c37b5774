/** A parsed sentence as the tree printer needs it (arrays 1-based, index 0 unused). */
export interface PrintableTree {
  forms: ArrayLike<string>;
  upos: ArrayLike<string>;
  heads: ArrayLike<number>;
  deprels: ArrayLike<string>;
  n: number;
}

/**
 * Renders a dependency tree as indented text with box-drawing branches, children in word order:
 *   sat VERB [3] root
 *   ├── cat NOUN [2] nsubj
 *   │   └── The DET [1] det
 */
export function formatTree(t: PrintableTree): string {
  const kids: number[][] = Array.from({ length: t.n + 1 }, () => []);
  for (let m = 1; m <= t.n; m++) {
    const h = t.heads[m]!;
    kids[h >= 0 && h <= t.n ? h : 0]!.push(m);
  }
  const lines: string[] = [];
  const label = (m: number) => `${t.forms[m]} ${t.upos[m]} [${m}] ${t.deprels[m]}`;
  const walk = (m: number, prefix: string, last: boolean, top: boolean) => {
    lines.push(top ? label(m) : `${prefix}${last ? "└── " : "├── "}${label(m)}`);
    const next = top ? "" : prefix + (last ? "    " : "│   ");
    const ks = kids[m]!;
    for (let i = 0; i < ks.length; i++) walk(ks[i]!, next, i === ks.length - 1, false);
  };
  for (const r of kids[0]!) walk(r, "", true, true);
  return lines.join("\n") + "\n";
}
