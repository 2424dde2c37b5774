/**
 * Rule-based English tokenizer following UD English EWT conventions: raw text → words with character
 * offsets, grouped into surface tokens (a token with several words becomes a CoNLL-U `N-M` range row).
 *
 * One linear scan over character codes; the only regular expressions run on single characters outside
 * ASCII (cached), so there is no backtracking on long inputs.
 */

/** One syntactic word (a CoNLL-U word row). */
export interface TokWord {
  /**
   * The word's text, `input.slice(start, end)`; for a word of a multiword token that the text does
   * not spell out (a learned tokenizer's Greek "στο" = "σε" + "το"), the word as the model gives it.
   */
  form: string;
  /** Offset of the first character in the input. */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /** False when the next word follows without whitespace (CoNLL-U `SpaceAfter=No`). */
  spaceAfter: boolean;
}

/** One surface token: a run of words written together that UD treats as a multiword token when it has several words. */
export interface TokToken {
  /** Offset of the first character in the input. */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /** Index (into `words`) of the token's first word. */
  firstWord: number;
  /** Index of the token's last word (inclusive); `lastWord > firstWord` marks a multiword token. */
  lastWord: number;
}

/** Output of the tokenizer: words in text order and the surface tokens covering them. */
export interface Tokenization {
  /** Every word, in order. */
  words: TokWord[];
  /** Every surface token, in order; together they cover `words` exactly once. */
  tokens: TokToken[];
}

// ---------------------------------------------------------------------------------------------
// Character classes

const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const SPACE = 3;

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) ASCII_CLASS[c] = LETTER;
  else if (c >= 48 && c <= 57) ASCII_CLASS[c] = DIGIT;
  // white space, and control characters (NUL, escape, delete, ...) treated as white space
  else if (c <= 32 || c === 127) ASCII_CLASS[c] = SPACE;
  else ASCII_CLASS[c] = OTHER;
}
const wideClass = new Map<number, number>();
const LETTER_RE = /[\p{L}\p{M}]/u;
const DIGIT_RE = /\p{N}/u;
const SPACE_RE = /[\s\p{Cc}]/u;

/** Character class of the UTF-16 unit `c` (surrogates count as OTHER). */
function classOf(c: number): number {
  if (c < 128) return ASCII_CLASS[c]!;
  let k = wideClass.get(c);
  if (k === undefined) {
    const s = String.fromCharCode(c);
    k =
      c >= 0xd800 && c <= 0xdfff
        ? OTHER
        : LETTER_RE.test(s)
          ? LETTER
          : DIGIT_RE.test(s)
            ? DIGIT
            : SPACE_RE.test(s)
              ? SPACE
              : OTHER;
    wideClass.set(c, k);
  }
  return k;
}

/** True for white space (including non-breaking and other Unicode spaces). */
export function isSpaceCode(c: number): boolean {
  return classOf(c) === SPACE;
}

const APOS = 39; // '
const RSQUO = 0x2019; // ’
const BACKTICK = 96; // `

function isApos(c: number): boolean {
  return c === APOS || c === RSQUO || c === BACKTICK;
}

function isUpperAscii(c: number): boolean {
  return c >= 65 && c <= 90;
}

function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

// ---------------------------------------------------------------------------------------------
// Exception lists learned from en_ewt train (curated)

/** Abbreviations that keep their final period (case-sensitive; EWT forms). */
const ABBREVIATIONS = new Set(
  (
    "Dr Mr Mrs Ms St vs etc Sept Sep Inc Ft Oct Dec Nov Co Corp Gen Lt Rev Jr Sr Feb Jan Aug Apr Mar Jun Jul " +
    "Wed Sat Sun Mon Tue Tues Thu Thur Thurs Fri Gov Ltd Arrv arrv Attn Reps Col Spec eg lb lbs oz ext lv Ph " +
    "Fax Mob Para eve Conf yrs Sen Blvd Que Va Sec Sc Vol rep ps rec dom Esp esp co mins approx dept Dept " +
    "Mt Prof Capt Sgt Cmdr Adm Maj Hon Pres Rep Calif Mass Fla Tex Ariz Ave Rd Hwy Messrs Mme Fig No Nos " +
    "vol pp cf viz al et Tel"
  ).split(" "),
);

/** Abbreviations whose period EWT splits off when the abbreviation ends the text. */
const SPLIT_AT_END = new Set(["etc", "al", "co", "esp", "eve", "yrs", "mins", "info"]);

/** Prefixes that stay attached to the following word across a hyphen (EWT keeps `non-human`, splits `well - known`). */
const HYPHEN_PREFIXES = new Set(
  (
    "e non pre anti mid re post co over pro multi ex sub semi cross neo psycho socio arch counter intra un " +
    "micro macro trans ultra mis hyper bi tri uni extra infra meta mono poly proto quasi tele"
  ).split(" "),
);

/** Letter runs after a number that EWT splits off as their own word (`5 pm`, `10 kg`). */
const NUMBER_UNITS = new Set(
  (
    "am pm k kg g km m mb gb kb tb lb lbs oz mph ft hr hrs min mins sec secs yr yrs x mg ml mm cm kw mw mwh " +
    "kwh bbl mmbtu persons people days years months weeks hours minutes times mins pts pcs"
  ).split(" "),
);

/** Written-together contractions EWT splits into several words (lower-cased form → split offsets). */
const FUSED = new Map<string, number[]>([
  ["cannot", [3]],
  ["gonna", [3]],
  ["wanna", [3]],
  ["gotta", [3]],
  ["outta", [3]],
  ["sorta", [4]],
  ["dunno", [2, 3]],
  ["i'ma", [1, 3]],
  ["i’ma", [1, 3]],
  ["dont", [2]],
  ["cant", [2]],
  ["wont", [2]],
  ["didnt", [3]],
  ["doesnt", [4]],
  ["isnt", [2]],
  ["wasnt", [3]],
  ["arent", [3]],
  ["werent", [4]],
  ["couldnt", [5]],
  ["wouldnt", [5]],
  ["shouldnt", [6]],
  ["havent", [4]],
  ["hasnt", [3]],
  ["hadnt", [3]],
  ["aint", [2]],
  ["im", [1]],
  ["ive", [1]],
  ["youre", [3]],
  ["theyre", [4]],
  ["thats", [4]],
  ["theres", [5]],
  ["whats", [4]],
  ["heres", [4]],
  ["lets", [3]],
  ["itll", [2]],
  ["youll", [3]],
  ["youve", [3]],
  ["theyve", [4]],
]);

/** Emoticons kept as one word. */
const EMOTICONS = [
  ":-)",
  ":-(",
  ";-)",
  ":-D",
  ":-P",
  ":-p",
  ">:(",
  "^_^",
  "^^",
  ":)",
  ":(",
  ";)",
  ":D",
  ":P",
  ":p",
  ":/",
  "=)",
  "=(",
  "(:",
  "):",
  "<3",
  ":o",
  ":O",
  "XD",
  "xD",
];

// ---------------------------------------------------------------------------------------------
// The scanner

/** Options of `tokenize`. */
export interface TokenizeOptions {
  /** Treat the end of `end` as the end of a sentence (splits `etc.` → `etc` `.`). Default true. */
  textEndIsSentenceEnd?: boolean;
}

/** Collects words and tokens while scanning. */
class Builder {
  readonly words: TokWord[] = [];
  readonly tokens: TokToken[] = [];
  private tokenStart = -1;
  private firstWord = 0;

  constructor(private readonly text: string) {}

  /** Adds a word; it joins the open token when `joined`, else starts a new one. */
  word(start: number, end: number, joined: boolean): void {
    if (!joined) this.close();
    if (this.tokenStart < 0) {
      this.tokenStart = start;
      this.firstWord = this.words.length;
    }
    const t = this.text;
    this.words.push({
      form: t.slice(start, end),
      start,
      end,
      spaceAfter: end >= t.length || classOf(t.charCodeAt(end)) === SPACE,
    });
  }

  /** Closes the open token. */
  close(): void {
    if (this.tokenStart < 0) return;
    const last = this.words.length - 1;
    this.tokens.push({
      start: this.tokenStart,
      end: this.words[last]!.end,
      firstWord: this.firstWord,
      lastWord: last,
    });
    this.tokenStart = -1;
  }
}

/** Tokenizes `text` (or `text.slice(start, end)`, keeping offsets into `text`) into UD English words. */
export function tokenize(
  text: string,
  start = 0,
  end = text.length,
  opts: TokenizeOptions = {},
): Tokenization {
  const b = new Builder(text);
  tokenizeInto(text, start, end, b, opts.textEndIsSentenceEnd ?? true);
  b.close();
  return { words: b.words, tokens: b.tokens };
}

function tokenizeInto(text: string, start: number, end: number, b: Builder, endIsSentenceEnd: boolean): void {
  let i = start;
  // Offset from which only white space remains (for `etc.` at the end of a sentence).
  let tail = end;
  if (endIsSentenceEnd) while (tail > start && classOf(text.charCodeAt(tail - 1)) === SPACE) tail--;
  else tail = -1;
  while (i < end) {
    while (i < end && classOf(text.charCodeAt(i)) === SPACE) i++;
    if (i >= end) break;
    let ce = i + 1;
    while (ce < end && classOf(text.charCodeAt(ce)) !== SPACE) ce++;
    scanChunk(text, i, ce, b, tail);
    b.close();
    i = ce;
  }
}

/** Tokenizes one white-space-free chunk [cs, ce). */
function scanChunk(text: string, cs: number, ce: number, b: Builder, tail: number): void {
  let p = cs;
  let special = -2; // lazily computed: start of an e-mail address or URL in the chunk, -1 if none
  while (p < ce) {
    const c = text.charCodeAt(p);
    const k = classOf(c);
    if (k === LETTER || k === DIGIT || c === 95 /* _ */) {
      if (special === -2) special = findSpecial(text, cs, ce);
      if (special === p) {
        const e = urlEnd(text, p, ce);
        b.word(p, e, false);
        p = e;
        continue;
      }
      p = scanWordAndClitics(text, p, ce, b, tail);
      continue;
    }
    // punctuation / symbols
    const emo = emoticonAt(text, p, ce, cs);
    if (emo > 0) {
      b.word(p, p + emo, false);
      p += emo;
      continue;
    }
    if ((c === 64 || c === 35) && p === cs && letterAt(text, p + 1, ce)) {
      // "@paulhastings.com", "#audiobooks"
      if (special === -2) special = findSpecial(text, cs, ce);
      if (c === 64 && special === p) {
        const e = urlEnd(text, p, ce);
        b.word(p, e, false);
        p = e;
        continue;
      }
      if (c === 35) {
        p = scanWordAndClitics(text, p + 1, ce, b, tail, p);
        continue;
      }
    }
    if (isApos(c)) {
      const cl = p === cs ? cliticLen(text, p, ce) : 0;
      if (cl > 0) {
        // a lone clitic: "'s"
        b.word(p, p + cl, false);
        p += cl;
        continue;
      }
      // abbreviated years: '72
      if (
        c !== BACKTICK &&
        digitAt(text, p + 1, ce) &&
        digitAt(text, p + 2, ce) &&
        !digitAt(text, p + 3, ce)
      ) {
        p = scanWordAndClitics(text, p + 1, ce, b, tail, p);
        continue;
      }
    }
    if (p + 1 < ce) {
      const n = text.charCodeAt(p + 1);
      const nk = classOf(n);
      // `.com`, `.NET` at the start of a chunk; `+44` phone prefixes
      if (
        (c === 46 && p === cs && nk === LETTER) ||
        (c === 46 && nk === DIGIT && (p === cs || text.charCodeAt(p - 1) === 36)) ||
        (c === 43 /* + */ && nk === DIGIT && p === cs)
      ) {
        const e = scanWordAndClitics(text, p + 1, ce, b, tail, p);
        p = e;
        continue;
      }
    }
    p = punctRun(text, p, ce, b);
  }
}

/** Emits one run of punctuation starting at p; returns its end. */
function punctRun(text: string, p: number, ce: number, b: Builder): number {
  const c = text.charCodeAt(p);
  let e = p + 1;
  // A symbol of several code units is one extended grapheme cluster (an emoji with its modifiers, a
  // ZWJ sequence such as a family emoji, a flag).
  const cluster = c >= 128 && c !== 0x2026 && c !== 0x2018 ? graphemeEnd(text, p, ce) : e;
  if (cluster > e) {
    e = cluster;
  } else if (c === 46 || c === 33 || c === 63 || c === 0x2026) {
    // . ! ? … mixed runs form one word ("...", "?!", "!!!")
    while (e < ce) {
      const d = text.charCodeAt(e);
      if (d === 46 || d === 33 || d === 63 || d === 0x2026) e++;
      else break;
    }
  } else if (c === 0x2018 && e < ce && text.charCodeAt(e) === 0x2019) {
    e++; // ‘’ used as a double quote
  } else if (isLineSymbol(c)) {
    // ASCII-art rules mixing symbols ("----==", "|-----+----->")
    while (e < ce && isLineSymbol(text.charCodeAt(e))) e++;
  } else if (c !== 91 && c !== 93 && c !== 34 && c !== 39 && c !== 44 && (c < 0xd800 || c > 0xdfff)) {
    // repeated symbols ("--", "**", "<<", "=====") form one word
    while (e < ce && text.charCodeAt(e) === c) e++;
  } else if (c === 39 && e < ce && text.charCodeAt(e) === 39) {
    e++; // '' as a closing double quote
  }
  b.word(p, e, false);
  return e;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * End of the extended grapheme cluster (Unicode UAX #29) that starts at p, within [p, ce): a family
 * emoji (seven code points joined by ZWJ), a flag or a thumbs-up with a skin tone is one cluster.
 */
function graphemeEnd(text: string, p: number, ce: number): number {
  const c = text.charCodeAt(p);
  // Fast path: a BMP symbol not followed by anything that could extend it.
  if (p + 1 >= ce) return ce;
  const d = text.charCodeAt(p + 1);
  const high = c >= 0xd800 && c <= 0xdbff;
  if (!high && d < 0x300) return p + 1;
  if (high && (d < 0xdc00 || d > 0xdfff)) return p + 1; // a lone surrogate
  for (let window = 32; ; window *= 4) {
    const end = Math.min(ce, p + window);
    const first = graphemes.segment(text.slice(p, end))[Symbol.iterator]().next();
    let e = p + (first.done === true ? 1 : first.value.segment.length);
    // never end between the two halves of a surrogate pair (lone surrogates confuse the segmenter)
    const last = text.charCodeAt(e - 1);
    if (last >= 0xd800 && last <= 0xdbff && e < ce) {
      const next = text.charCodeAt(e);
      if (next >= 0xdc00 && next <= 0xdfff) e = e - 1 > p ? e - 1 : e + 1;
    }
    if (e < end || end === ce) return e;
  }
}

/** Symbols that draw lines and arrows (a mixed run of them is one word, e.g. `----==`). */
function isLineSymbol(c: number): boolean {
  return c === 45 || c === 61 || c === 126 || c === 42 || c === 43 || c === 124 || c === 95;
}

/** Length of an emoticon starting at p, or 0. */
function emoticonAt(text: string, p: number, ce: number, cs: number): number {
  const c = text.charCodeAt(p);
  if (
    c !== 58 &&
    c !== 59 &&
    c !== 61 &&
    c !== 62 &&
    c !== 94 &&
    c !== 40 &&
    c !== 41 &&
    c !== 60 &&
    c !== 88 &&
    c !== 120
  )
    return 0;
  for (const e of EMOTICONS) {
    if (p + e.length > ce || !text.startsWith(e, p)) continue;
    // must end the chunk or be followed by non-alphanumerics
    const after = p + e.length;
    if (after < ce) {
      const k = classOf(text.charCodeAt(after));
      if (k === LETTER || k === DIGIT) continue;
    }
    // brackets-first ones ("(:", "):") and letter ones only stand alone
    if ((c === 40 || c === 41 || c === 88 || c === 120) && (p !== cs || after !== ce)) continue;
    if (p > cs) {
      const k = classOf(text.charCodeAt(p - 1));
      if ((k === LETTER || k === DIGIT) && (c === 58 || c === 59) && after < ce) continue;
    }
    return e.length;
  }
  return 0;
}

/** True for characters allowed in the local part of an e-mail address. */
function isEmailLocal(c: number): boolean {
  const k = classOf(c);
  return k === LETTER || k === DIGIT || c === 46 || c === 95 || c === 45 || c === 43 || c === 37;
}

/** Start offset of an e-mail address or URL inside [cs, ce), or -1. */
function findSpecial(text: string, cs: number, ce: number): number {
  for (let i = cs; i < ce; i++) {
    const c = text.charCodeAt(i);
    if (c === 64 /* @ */) {
      if (i + 1 < ce && classOf(text.charCodeAt(i + 1)) === LETTER) {
        let dot = false;
        for (let j = i + 2; j < ce - 1; j++) if (text.charCodeAt(j) === 46) dot = true;
        if (!dot) continue;
        let s = i;
        while (s > cs && isEmailLocal(text.charCodeAt(s - 1))) s--;
        while (s < i && !wordCharAt(text, s, ce)) s++;
        return s;
      }
    } else if (c === 58 /* : */) {
      if (i + 2 < ce && text.charCodeAt(i + 1) === 47 && text.charCodeAt(i + 2) === 47) {
        let s = i;
        while (s > cs && classOf(text.charCodeAt(s - 1)) === LETTER) s--;
        if (s < i) return s;
      }
    } else if (
      (c === 119 || c === 87) &&
      i + 4 < ce &&
      (i === cs || classOf(text.charCodeAt(i - 1)) !== LETTER)
    ) {
      if (text.slice(i, i + 4).toLowerCase() === "www.") return i;
    }
  }
  return -1;
}

/** End of a URL or e-mail address that starts at p: the chunk minus trailing punctuation. */
function urlEnd(text: string, p: number, ce: number): number {
  let e = ce;
  let open = 0;
  for (let i = p; i < ce; i++) if (text.charCodeAt(i) === 40) open++;
  while (e > p + 1) {
    const c = text.charCodeAt(e - 1);
    if (c === 41 && open > 0) break;
    if (
      c === 46 ||
      c === 44 ||
      c === 59 ||
      c === 58 ||
      c === 33 ||
      c === 63 ||
      c === 41 ||
      c === 93 ||
      c === 34 ||
      c === 39 ||
      c === 62 ||
      c === 0x201d ||
      c === RSQUO
    )
      e--;
    else break;
  }
  return e;
}

/** Length of a clitic (`n't`, `'s`, `'re`, `'ve`, `'ll`, `'d`, `'m`) starting at p and ending a word, or 0. */
function cliticLen(text: string, p: number, ce: number): number {
  const c = text.charCodeAt(p);
  if (c === 110 || c === 78) {
    // n't
    if (
      p + 2 < ce &&
      isApos(text.charCodeAt(p + 1)) &&
      lowerAscii(text.charCodeAt(p + 2)) === 116 &&
      !letterAt(text, p + 3, ce)
    )
      return 3;
    return 0;
  }
  if (!isApos(c) || p + 1 >= ce) return 0;
  const a = lowerAscii(text.charCodeAt(p + 1));
  if (a === 115 || a === 100 || a === 109) return letterAt(text, p + 2, ce) ? 0 : 2; // 's 'd 'm
  if (p + 2 < ce) {
    const b = lowerAscii(text.charCodeAt(p + 2));
    if ((a === 114 && b === 101) || (a === 118 && b === 101) || (a === 108 && b === 108))
      return letterAt(text, p + 3, ce) ? 0 : 3; // 're 've 'll
  }
  return 0;
}

function letterAt(text: string, p: number, ce: number): boolean {
  return p < ce && classOf(text.charCodeAt(p)) === LETTER;
}

function wordCharAt(text: string, p: number, ce: number): boolean {
  if (p >= ce) return false;
  const k = classOf(text.charCodeAt(p));
  return k === LETTER || k === DIGIT;
}

function digitAt(text: string, p: number, ce: number): boolean {
  return p < ce && p >= 0 && classOf(text.charCodeAt(p)) === DIGIT;
}

/**
 * Scans the word starting at p (a letter, digit or '_'), attaches an abbreviation's period, splits
 * fused contractions and trailing clitics, emits them as one token; returns the offset after it.
 * `from` (≤ p) is where the token really starts (a leading `.` or `+`).
 */
function scanWordAndClitics(text: string, p: number, ce: number, b: Builder, tail: number, from = p): number {
  let i = p + 1;
  let segStart = p; // start of the current hyphen segment
  let hasDot = false;
  let onlyLetters = true; // letters only so far (for fused contractions)
  if (classOf(text.charCodeAt(p)) !== LETTER) onlyLetters = false;
  let cut = -1; // a number+unit or similar split point inside the word
  for (;;) {
    // run of word characters
    while (i < ce) {
      const c = text.charCodeAt(i);
      const k = classOf(c);
      if (k === LETTER) {
        // number followed by a unit ("5pm", "10kg") → split
        if (i > p && classOf(text.charCodeAt(i - 1)) === DIGIT && cut < 0 && unitAt(text, i, ce)) {
          cut = i;
          break;
        }
        i++;
      } else if (k === DIGIT || c === 95) {
        onlyLetters = false;
        i++;
      } else break;
    }
    if (cut >= 0 || i >= ce) break;
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      if (wordCharAt(text, i + 1, ce)) {
        hasDot = true;
        onlyLetters = false;
        i++;
        continue;
      }
      break;
    }
    if (c === 44 /* , */ || c === 58 /* : */) {
      if (digitAt(text, i - 1, ce) && digitAt(text, i + 1, ce)) {
        onlyLetters = false;
        i++;
        continue;
      }
      break;
    }
    if (c === 47 /* / */) {
      if (
        (digitAt(text, i - 1, ce) && keepNumberSlash(text, p, segStart, i, ce)) ||
        (i - segStart === 1 &&
          letterAt(text, i + 1, ce) &&
          (i + 2 >= ce || !wordCharAt(text, i + 2, ce) || i + 4 >= ce))
      ) {
        onlyLetters = false;
        i++;
        segStart = i;
        continue;
      }
      break;
    }
    if (c === 45 /* - */) {
      if (keepHyphen(text, p, segStart, i, ce)) {
        onlyLetters = false;
        i++;
        segStart = i;
        continue;
      }
      break;
    }
    if (c === 64 /* @ */) {
      // Lotus Notes addresses ("Rice@ENRON")
      if (letterAt(text, i - 1, ce) && letterAt(text, i + 1, ce)) {
        onlyLetters = false;
        i++;
        continue;
      }
      break;
    }
    if (c === 36 /* $ */) {
      // currencies written with letters ("US$", "C$")
      if (isUpperAscii(text.charCodeAt(i - 1)) && i - p <= 2) {
        onlyLetters = false;
        i++;
      }
      break;
    }
    if (c === 38 /* & */) {
      if (isUpperAscii(text.charCodeAt(i - 1)) && i + 1 < ce && isUpperAscii(text.charCodeAt(i + 1))) {
        onlyLetters = false;
        i++;
        continue;
      }
      break;
    }
    if (isApos(c)) {
      if (i - 1 > p && cliticLen(text, i - 1, ce) === 3 && (text.charCodeAt(i - 1) | 32) === 110) {
        i--; // "don't" → "do" + "n't"
        break;
      }
      if (cliticLen(text, i, ce) > 0 && !(digitAt(text, i - 1, ce) && (text.charCodeAt(i + 1) | 32) === 115))
        break;
      if (wordCharAt(text, i + 1, ce) && c !== BACKTICK) {
        i++;
        continue;
      }
      break;
    }
    break;
  }
  let we = cut >= 0 ? cut : i;
  // abbreviation period
  if (cut < 0 && we < ce && text.charCodeAt(we) === 46) {
    // "Inc.." is "Inc." + "."; "so..." keeps its ellipsis whole
    const dots = we + 1 < ce && text.charCodeAt(we + 1) === 46;
    if (!dots) {
      if (attachPeriod(text, p, we, hasDot, tail)) we++;
    } else if (!(we + 2 < ce && text.charCodeAt(we + 2) === 46) && attachPeriod(text, p, we, hasDot, -1))
      we++;
  }
  // fused contractions written without apostrophe
  if (onlyLetters && we - p >= 2 && we - p <= 8 && we === i && !letterAt(text, we, ce)) {
    const splits = FUSED.get(text.slice(p, we).toLowerCase());
    if (splits !== undefined) {
      let s = from;
      for (const off of splits) {
        b.word(s, p + off, s !== from);
        s = p + off;
      }
      b.word(s, we, true);
      return trailingClitics(text, we, ce, b);
    }
  }
  b.word(from, we, false);
  if (cut >= 0) {
    b.close();
    return we;
  }
  return trailingClitics(text, we, ce, b);
}

/** Emits clitics (`'s`, `n't`, a possessive `'` after s) directly following a word; returns the offset after them. */
function trailingClitics(text: string, p: number, ce: number, b: Builder): number {
  for (;;) {
    const n = cliticLen(text, p, ce);
    if (n > 0) {
      b.word(p, p + n, true);
      p += n;
      continue;
    }
    // plural possessive: "parents'" (apostrophe after s, then no letter)
    if (
      p < ce &&
      (text.charCodeAt(p) === APOS || text.charCodeAt(p) === RSQUO) &&
      (text.charCodeAt(p - 1) | 32) === 115 &&
      !wordCharAt(text, p + 1, ce) &&
      !(p + 1 < ce && isApos(text.charCodeAt(p + 1)))
    ) {
      b.word(p, p + 1, true);
      p++;
    }
    return p;
  }
}

/** True when the letters at i (after a digit) are a unit EWT separates from the number. */
function unitAt(text: string, i: number, ce: number): boolean {
  let e = i;
  while (e < ce && classOf(text.charCodeAt(e)) === LETTER) e++;
  if (e - i > 7) return false;
  if (e < ce && classOf(text.charCodeAt(e)) === DIGIT) return false;
  return NUMBER_UNITS.has(text.slice(i, e).toLowerCase());
}

/** Decides whether the slash at i between digits stays inside a number (dates `9/11`, `11/28/2000`; not `1/2`, `20/20`). */
function keepNumberSlash(text: string, p: number, seg: number, i: number, ce: number): boolean {
  if (!digitAt(text, i + 1, ce)) return false;
  if (seg > p) return true; // second slash of a date
  let e = i + 1;
  while (e < ce && classOf(text.charCodeAt(e)) === DIGIT) e++;
  if (e < ce && text.charCodeAt(e) === 47 && digitAt(text, e + 1, ce)) return true; // m/d/y
  for (let j = p; j < i; j++) if (classOf(text.charCodeAt(j)) !== DIGIT) return false;
  const a = Number(text.slice(p, i));
  const b = Number(text.slice(i + 1, e));
  if (i - p === 1 && e - i === 2) return false; // fractions "1/2"
  return a >= 1 && a <= 12 && b >= 1 && b <= 31 && e - i - 1 <= 2;
}

/** Decides whether the hyphen at i stays inside the word that started at p (its current segment starts at seg). */
function keepHyphen(text: string, p: number, seg: number, i: number, ce: number): boolean {
  if (!wordCharAt(text, i + 1, ce) || i === seg) return false;
  let letters = 0;
  let digits = 0;
  for (let j = seg; j < i; j++) {
    const k = classOf(text.charCodeAt(j));
    if (k === LETTER) letters++;
    else if (k === DIGIT) digits++;
  }
  // following segment
  let e = i + 1;
  let nLetters = 0;
  let nDigits = 0;
  while (e < ce) {
    const k = classOf(text.charCodeAt(e));
    if (k === LETTER) nLetters++;
    else if (k === DIGIT) nDigits++;
    else break;
    e++;
  }
  if (letters === 0 && nLetters === 0) {
    // number-number: phone numbers, zip codes and dates stay whole; ranges ("5-10", "1969-1970", "5:00-8:30") split
    if (digits !== i - seg) return false;
    if (seg > p) return true;
    if (e < ce && text.charCodeAt(e) === 45 && digitAt(text, e + 1, ce)) return true;
    return nDigits >= 4 && digits !== 4 && !(e < ce && text.charCodeAt(e) === 58);
  }
  if (digits > 0 && letters > 0) return true; // codes like x3-9890
  if (letters > 0 && digits === 0 && nLetters > 0) {
    return seg === p && HYPHEN_PREFIXES.has(text.slice(seg, i).toLowerCase());
  }
  return false;
}

/** Decides whether the period after the word [p, we) belongs to it (an abbreviation or initial). */
function attachPeriod(text: string, p: number, we: number, hasDot: boolean, tail: number): boolean {
  const n = we - p;
  const first = text.charCodeAt(p);
  if (n === 1) return isUpperAscii(first) && we + 1 !== tail;
  if (hasDot) {
    if (we + 1 === tail) return false; // "p.m" + "." at the end of a sentence
    // "U.S", "e.g", "a.m", "Ph.D": letter runs of at most 3 separated by dots
    let run = 0;
    for (let j = p; j < we; j++) {
      const c = text.charCodeAt(j);
      if (c === 46) run = 0;
      else if (classOf(c) === LETTER && ++run <= 3) continue;
      else if (classOf(c) !== LETTER) return false;
      else return false;
    }
    return true;
  }
  if (n > 6) return false;
  const w = text.slice(p, we);
  if (!ABBREVIATIONS.has(w)) return false;
  if (we + 1 === tail && SPLIT_AT_END.has(w.toLowerCase())) return false;
  return true;
}
