/**
 * Lemma edit rules in the style of Chrupała et al. (2008) and UDPipe 1 (Straka et al. 2016): a
 * (form, lemma) pair becomes a class that maps the form to the lemma — a case mapping of the whole
 * form, then the longest common substring of the cased form and the lemma is kept and what lies
 * before and after it is replaced (strip a prefix, prepend a string; strip a suffix, append a
 * string). The stripped strings are part of the rule, so a rule applies only to forms that start and
 * end with them ("ies" → "y" does not apply to "walked").
 */

/** Case mappings applied to the whole form before the affix edits. */
export const CASINGS = ["keep", "lower", "title", "upper"] as const;

/** A lemma edit rule. */
export interface EditRule {
  /** Index into `CASINGS`. */
  casing: number;
  stripPrefix: string;
  addPrefix: string;
  stripSuffix: string;
  addSuffix: string;
}

/** The form under a case mapping. */
export function applyCasing(form: string, casing: number): string {
  switch (casing) {
    case 0:
      return form;
    case 1:
      return form.toLowerCase();
    case 2:
      return form.length === 0 ? form : form.charAt(0).toUpperCase() + form.slice(1).toLowerCase();
    default:
      return form.toUpperCase();
  }
}

/** Longest common substring of a and b: [start in a, start in b, length] (the earliest in a on ties). */
function longestCommonSubstring(a: string, b: string): [number, number, number] {
  let best: [number, number, number] = [0, 0, 0];
  const prev = new Int32Array(b.length + 1);
  const cur = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? prev[j - 1]! + 1 : 0;
      if (cur[j]! > best[2]) best = [i - cur[j]!, j - cur[j]!, cur[j]!];
    }
    prev.set(cur);
  }
  return best;
}

/** The rule that turns `form` into `lemma` (the casing that keeps the longest common substring; keep first on ties). */
export function ruleFor(form: string, lemma: string): EditRule {
  let bestRule: EditRule | null = null;
  let bestLen = -1;
  for (let c = 0; c < CASINGS.length; c++) {
    const f = applyCasing(form, c);
    const [i, j, len] = longestCommonSubstring(f, lemma);
    if (len <= bestLen) continue;
    bestLen = len;
    if (len === 0) {
      bestRule = { casing: c, stripPrefix: "", addPrefix: "", stripSuffix: f, addSuffix: lemma };
    } else {
      bestRule = {
        casing: c,
        stripPrefix: f.slice(0, i),
        addPrefix: lemma.slice(0, j),
        stripSuffix: f.slice(i + len),
        addSuffix: lemma.slice(j + len),
      };
    }
  }
  return bestRule!;
}

/** The rule's lemma for `form`, or null if the rule does not apply (or would give an empty lemma). */
export function applyRule(rule: EditRule, form: string): string | null {
  const f = applyCasing(form, rule.casing);
  const p = rule.stripPrefix.length;
  const s = rule.stripSuffix.length;
  if (p + s > f.length || !f.startsWith(rule.stripPrefix) || !f.endsWith(rule.stripSuffix)) return null;
  const out = rule.addPrefix + f.slice(p, f.length - s) + rule.addSuffix;
  return out.length === 0 ? null : out;
}

/** A rule as one string (its identity as a class and its stored form). */
export function ruleKey(r: EditRule): string {
  return `${r.casing}\t${r.stripPrefix}\t${r.addPrefix}\t${r.stripSuffix}\t${r.addSuffix}`;
}

/** Inverse of `ruleKey`; throws on a malformed key. */
export function parseRuleKey(key: string): EditRule {
  const p = key.split("\t");
  const casing = Number(p[0]);
  if (p.length !== 5 || !Number.isInteger(casing) || casing < 0 || casing >= CASINGS.length)
    throw new RangeError(`malformed lemma rule ${JSON.stringify(key)}`);
  return { casing, stripPrefix: p[1]!, addPrefix: p[2]!, stripSuffix: p[3]!, addSuffix: p[4]! };
}

/**
 * Whether `rule` applies to `f`, the form already under the rule's casing, giving a non-empty lemma
 * (what `applyRule` checks, without building the lemma).
 */
function appliesCased(rule: EditRule, f: string): boolean {
  const p = rule.stripPrefix.length;
  const s = rule.stripSuffix.length;
  if (p + s > f.length || !f.startsWith(rule.stripPrefix) || !f.endsWith(rule.stripSuffix)) return false;
  return rule.addPrefix.length + f.length - p - s + rule.addSuffix.length > 0;
}

/** Hash of the last k code units of s, extended one unit at a time from the end (k = 0: the seed). */
function suffixStep(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193) | 0;
}
const SUFFIX_SEED = 0x811c9dc5 | 0;

/** Hash of a whole suffix, as `suffixStep` builds it from the end. */
function suffixHash(suffix: string): number {
  let h = SUFFIX_SEED;
  for (let i = suffix.length - 1; i >= 0; i--) h = suffixStep(h, suffix.charCodeAt(i));
  return h;
}

/**
 * A set of rules indexed for finding those applicable to a form quickly: rules are grouped by casing
 * and by a hash of their stripped suffix, so a form looks up each of its suffixes (as long as the
 * longest stripped suffix at most) under each casing without building a string; a group's rules are
 * then checked against the form.
 */
export class RuleSet {
  readonly rules: EditRule[] = [];
  private readonly ids = new Map<string, number>();
  /** Per casing: suffix hash → rule ids. */
  private readonly bySuffix = CASINGS.map(() => new Map<number, number[]>());
  /** Per casing: the longest stripped suffix. */
  private readonly longest = CASINGS.map(() => 0);

  /** Id of a rule, adding it if new. */
  add(r: EditRule): number {
    const k = ruleKey(r);
    let id = this.ids.get(k);
    if (id === undefined) {
      id = this.rules.length;
      this.rules.push(r);
      this.ids.set(k, id);
      const table = this.bySuffix[r.casing]!;
      const h = suffixHash(r.stripSuffix);
      const list = table.get(h);
      if (list === undefined) table.set(h, [id]);
      else list.push(id);
      if (r.stripSuffix.length > this.longest[r.casing]!) this.longest[r.casing] = r.stripSuffix.length;
    }
    return id;
  }

  /** Id of a rule, or -1. */
  id(r: EditRule): number {
    return this.ids.get(ruleKey(r)) ?? -1;
  }

  get size(): number {
    return this.rules.length;
  }

  /** Ids of the rules applicable to `form` (ascending), written to `out`; returns how many. */
  applicable(form: string, out: Int32Array): number {
    let n = 0;
    for (let c = 0; c < CASINGS.length; c++) {
      const f = applyCasing(form, c);
      const table = this.bySuffix[c]!;
      const last = Math.min(f.length, this.longest[c]!);
      let h = SUFFIX_SEED;
      for (let k = 0; k <= last; k++) {
        if (k > 0) h = suffixStep(h, f.charCodeAt(f.length - k));
        const list = table.get(h);
        if (list === undefined) continue;
        for (const id of list) {
          if (n >= out.length) break;
          const r = this.rules[id]!;
          // A hash match is checked: the rule's suffix must have this length (and match, in appliesCased).
          if (r.stripSuffix.length === k && appliesCased(r, f)) out[n++] = id;
        }
      }
    }
    out.subarray(0, n).sort();
    return n;
  }
}
