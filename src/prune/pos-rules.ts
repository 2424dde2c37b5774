import { VineparseError } from "../errors.js";
import type { ArcMask } from "../mask/arc-mask.js";
import type { ModelData } from "../model/model-file.js";
import type { ArcPruner, PruneInput } from "./pruner.js";
import { HEAD_LEFT, HEAD_RIGHT, tripleIndex } from "./tag-arc-counts.js";
import { type TagColumn, TagMap } from "./tag-map.js";

/** Model-file kind of a PoS rules pass. */
export const RULES_KIND = "rules";
/** Version of the PoS rules pass layout. */
export const RULES_VERSION = 1;

/** The token rule lists of a PoS rules filter (each a list of tags). */
export const TOKEN_RULES = ["notHead", "noHeadLeft", "noHeadRight", "notRoot"] as const;
/** One token rule list. */
export type TokenRule = (typeof TOKEN_RULES)[number];

/**
 * Learned PoS rules (Bergsma & Cherry 2010 §4.2, Table 1) as tag strings. Left and right concern token
 * heads only: the artificial root has no position, and arcs from it obey `notRoot` alone.
 */
export interface PosRules {
  /** A token with one of these tags heads nothing: every arc it heads is removed. */
  notHead: string[];
  /** No head on the left (∗←m): arcs from tokens before it are removed. */
  noHeadLeft: string[];
  /** No head on the right (m→∗): arcs from tokens after it are removed. */
  noHeadRight: string[];
  /** Never the sentence's root: the arc from the root is removed. */
  notRoot: string[];
  /** [head, modifier] tag pairs never linked with the head on the left (h←m). */
  pairsHeadLeft: [string, string][];
  /** [head, modifier] tag pairs never linked with the head on the right (m→h). */
  pairsHeadRight: [string, string][];
}

/** Rules that remove nothing. */
export function emptyRules(): PosRules {
  return { notHead: [], noHeadLeft: [], noHeadRight: [], notRoot: [], pairsHeadLeft: [], pairsHeadRight: [] };
}

/** How the rules were chosen (kept in the model file, shown by `filter show`). */
export interface RulesInfo {
  /** Value of the classifiers' bias feature (0: none). */
  bias?: number;
  /** Costs of each classifier: C1 (filter class) and C2/C1 (null: the classifier is off). */
  settings?: Partial<Record<string, { c1: number; ratio: number } | null>>;
  /** Coverage target the costs were chosen for (%). */
  target?: number;
  /** Coverage on the development data (%). */
  devCoverage?: number;
  /** Reduction on the development data (%). */
  devReduction?: number;
}

/**
 * A PoS rules pass: table lookups on the filter's dense tag ids. Per sentence it maps the tags once,
 * applies the token rules (O(n) decisions: not-a-head clears a row, no-head-left/right a half column,
 * not-a-root one root arc) and, when there are pair rules, looks up each arc still allowed in one
 * [direction, head tag, modifier tag] table (O(arcs)); nothing is allocated after the first sentences.
 */
export class PosRulesPruner implements ArcPruner {
  /** Always "rules". */
  readonly kind = RULES_KIND;
  /** Dense tag ids (the training tags plus any tag the rules name). */
  readonly tagMap: TagMap;
  /** The rules. */
  readonly rules: PosRules;
  /** How they were chosen. */
  readonly info: RulesInfo;
  private readonly notHead: Uint8Array;
  private readonly noLeft: Uint8Array;
  private readonly noRight: Uint8Array;
  private readonly notRoot: Uint8Array;
  private readonly pairs: Uint8Array;
  private readonly hasPairs: boolean;
  private tags = new Int32Array(64);

  constructor(rules: PosRules, column: TagColumn, tags: readonly string[] = [], info: RulesInfo = {}) {
    const all = [...tags];
    const seen = new Set(all);
    const note = (t: string) => {
      if (!seen.has(t)) {
        seen.add(t);
        all.push(t);
      }
    };
    for (const k of TOKEN_RULES) rules[k].forEach(note);
    for (const [h, m] of [...rules.pairsHeadLeft, ...rules.pairsHeadRight]) {
      note(h);
      note(m);
    }
    this.tagMap = new TagMap(all, column);
    this.rules = rules;
    this.info = info;
    const S = this.tagMap.size;
    const table = (list: string[]) => {
      const t = new Uint8Array(S);
      for (const tag of list) t[this.tagMap.id(tag)] = 1;
      return t;
    };
    this.notHead = table(rules.notHead);
    this.noLeft = table(rules.noHeadLeft);
    this.noRight = table(rules.noHeadRight);
    this.notRoot = table(rules.notRoot);
    this.pairs = new Uint8Array(2 * S * S);
    for (const [dir, list] of [
      [HEAD_LEFT, rules.pairsHeadLeft],
      [HEAD_RIGHT, rules.pairsHeadRight],
    ] as const)
      for (const [h, m] of list) this.pairs[tripleIndex(dir, this.tagMap.id(h), this.tagMap.id(m), S)] = 1;
    this.hasPairs = rules.pairsHeadLeft.length + rules.pairsHeadRight.length > 0;
  }

  /** Number of rules (tags and tag pairs over every list). */
  get size(): number {
    const r = this.rules;
    return (
      TOKEN_RULES.reduce((a, k) => a + r[k].length, 0) + r.pairsHeadLeft.length + r.pairsHeadRight.length
    );
  }

  /** Removes the arcs the rules name, in place. */
  prune(input: PruneInput, mask: ArcMask): void {
    const n = mask.n;
    if (this.tags.length < n + 1) this.tags = new Int32Array(Math.max(n + 1, this.tags.length * 2));
    const tags = this.tags;
    this.tagMap.fill(input.sentence, input.vocab, tags);
    const bits = mask.bits;
    const size = n + 1;
    const notRoot = this.notRoot;
    const notHead = this.notHead;
    const noLeft = this.noLeft;
    const noRight = this.noRight;
    for (let m = 1; m <= n; m++) {
      const tm = tags[m]!;
      if (notRoot[tm] === 1) bits[m] = 0;
      if (noLeft[tm] === 1) for (let h = 1; h < m; h++) bits[h * size + m] = 0;
      if (noRight[tm] === 1) for (let h = m + 1; h <= n; h++) bits[h * size + m] = 0;
    }
    const S = this.tagMap.size;
    const pairs = this.pairs;
    const hasPairs = this.hasPairs;
    for (let h = 1; h <= n; h++) {
      const row = h * size;
      const th = tags[h]!;
      if (notHead[th] === 1) {
        bits.fill(0, row + 1, row + size);
        continue;
      }
      if (!hasPairs) continue;
      const right = tripleIndex(HEAD_RIGHT, th, 0, S);
      for (let m = 1; m < h; m++) if (pairs[right + tags[m]!] === 1) bits[row + m] = 0;
      const left = tripleIndex(HEAD_LEFT, th, 0, S);
      for (let m = h + 1; m <= n; m++) if (pairs[left + tags[m]!] === 1) bits[row + m] = 0;
    }
  }

  /** The pass as model-file content: the rule lists (tag strings) in the metadata. */
  toModelData(): ModelData {
    return {
      kind: RULES_KIND,
      meta: {
        version: RULES_VERSION,
        column: this.tagMap.column,
        tags: this.tagMap.tags,
        rules: this.rules,
        ...this.info,
      },
      arrays: {},
    };
  }

  /**
   * The rules as in Bergsma & Cherry's Table 1: the tags of each token rule, then the tag pairs by head
   * ("DT←{JJ NN}": a DT never heads a JJ or NN on its right; "{DT IN}→NN": never one on its left; tags in
   * braces are separated by spaces, since "," is a tag too).
   */
  describe(): string {
    const r = this.rules;
    const i = this.info;
    const lines: string[] = [];
    let head = `PoS rules (${this.tagMap.column.toUpperCase()}): ${this.size} rules`;
    if (i.settings !== undefined) {
      const costs = Object.entries(i.settings)
        .map(([k, v]) => `${k} ${v === null || v === undefined ? "off" : `C1 ${v.c1} C2/C1 ${v.ratio}`}`)
        .join(", ");
      head += `; bias feature ${i.bias ?? 0}; ${costs}`;
    }
    lines.push(head);
    if (i.devCoverage !== undefined)
      lines.push(
        `dev: coverage ${i.devCoverage}%, reduction ${i.devReduction}%` +
          (i.target === undefined ? "" : ` (target coverage ${i.target}%)`),
      );
    const row = (name: string, items: string[]) =>
      lines.push(`${name.padEnd(20)} ${items.length === 0 ? "-" : items.join(" ")}`);
    row("not a head", r.notHead);
    row("no head left (∗←m)", r.noHeadLeft);
    row("no head right (m→∗)", r.noHeadRight);
    row("not a root", r.notRoot);
    const group = (pairs: [string, string][]) => {
      const by = new Map<string, string[]>();
      for (const [h, m] of pairs) {
        const l = by.get(h) ?? [];
        l.push(m);
        by.set(h, l);
      }
      return [...by.entries()];
    };
    const set = (ms: string[]) => (ms.length === 1 ? ms[0]! : `{${ms.join(" ")}}`);
    // Pair rules: one head tag per line, as in Table 1.
    const rows = (name: string, items: string[]) => {
      if (items.length === 0) row(name, items);
      items.forEach((it, i) => lines.push(`${(i === 0 ? name : "").padEnd(20)} ${it}`));
    };
    rows(
      "no h←m",
      group(r.pairsHeadLeft).map(([h, ms]) => `${h}←${set(ms)}`),
    );
    rows(
      "no m→h",
      group(r.pairsHeadRight).map(([h, ms]) => `${set(ms)}→${h}`),
    );
    return lines.join("\n") + "\n";
  }

  /** Loads a pass written by `toModelData`. */
  static fromModelData(m: ModelData, file: string): PosRulesPruner {
    const meta = m.meta as {
      version?: number;
      column?: unknown;
      tags?: unknown;
      rules?: unknown;
    } & RulesInfo;
    if (meta.version !== RULES_VERSION)
      throw new VineparseError(
        "model-version",
        `PoS rules pass version ${meta.version} is not supported`,
        file,
      );
    const isTags = (x: unknown): x is string[] => Array.isArray(x) && x.every((t) => typeof t === "string");
    const isPairs = (x: unknown): x is [string, string][] =>
      Array.isArray(x) && x.every((p) => isTags(p) && p.length === 2);
    const r = meta.rules as Record<string, unknown> | undefined;
    const ok =
      (meta.column === "upos" || meta.column === "xpos") &&
      isTags(meta.tags) &&
      typeof r === "object" &&
      r !== null &&
      TOKEN_RULES.every((k) => isTags(r[k])) &&
      isPairs(r.pairsHeadLeft) &&
      isPairs(r.pairsHeadRight);
    if (!ok)
      throw new VineparseError("model-corrupt", "corrupted model: PoS rules pass has bad rule lists", file);
    const info: RulesInfo = {};
    for (const k of ["bias", "target", "devCoverage", "devReduction"] as const)
      if (typeof meta[k] === "number") info[k] = meta[k];
    if (typeof meta.settings === "object" && meta.settings !== null) info.settings = meta.settings;
    return new PosRulesPruner(
      r as unknown as PosRules,
      meta.column as TagColumn,
      meta.tags as string[],
      info,
    );
  }
}
