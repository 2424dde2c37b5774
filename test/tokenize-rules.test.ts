import assert from "node:assert/strict";
import { test } from "node:test";
import { capSentenceLength, MAX_SENTENCE_WORDS, segmentText } from "../src/pipeline/sentence-split.js";
import { tokenize } from "../src/pipeline/tokenize.js";

/** Words of `text` joined by spaces. */
function words(text: string): string {
  return tokenize(text)
    .words.map((w) => w.form)
    .join(" ");
}

/** Surface tokens, multiword ones as `surface=w1+w2`. */
function tokens(text: string): string[] {
  const t = tokenize(text);
  return t.tokens.map((k) => {
    const surface = text.slice(k.start, k.end);
    if (k.lastWord === k.firstWord) return surface;
    return `${surface}=${t.words
      .slice(k.firstWord, k.lastWord + 1)
      .map((w) => w.form)
      .join("+")}`;
  });
}

test("contractions split into EWT words", () => {
  assert.equal(words("I don't think they're here."), "I do n't think they 're here .");
  assert.equal(words("We can't, won't and ain't."), "We ca n't , wo n't and ai n't .");
  assert.equal(
    words("I'm sure you'll see it's Bob's, we've seen he'd go."),
    "I 'm sure you 'll see it 's Bob 's , we 've seen he 'd go .",
  );
  assert.equal(words("It’s Kerry’s and I don’t care"), "It ’s Kerry ’s and I do n’t care");
  assert.equal(words("We're gonna wanna go, I cannot."), "We 're gon na wan na go , I can not .");
  assert.equal(words("dont cant im thats"), "do nt ca nt i m that s");
  assert.equal(words("the parents' house"), "the parents ' house");
  assert.equal(words("in the 60's and O'Brien"), "in the 60's and O'Brien");
});

test("multiword tokens keep their surface form", () => {
  assert.deepEqual(tokens("I can't go"), ["I", "can't=ca+n't", "go"]);
  assert.deepEqual(tokens("Bush's gonna win."), ["Bush's=Bush+'s", "gonna=gon+na", "win", "."]);
  assert.deepEqual(tokens('"Hi," she said'), ['"', "Hi", ",", '"', "she", "said"]);
});

test("abbreviations keep their period", () => {
  assert.equal(
    words("Mr. Smith met Dr. Jones in the U.S. on Sept. 5."),
    "Mr. Smith met Dr. Jones in the U.S. on Sept. 5 .",
  );
  assert.equal(words("e.g. apples, i.e. fruit, etc. and more"), "e.g. apples , i.e. fruit , etc. and more");
  assert.equal(words("George W. Bush"), "George W. Bush");
  assert.equal(words("apples, pears etc."), "apples , pears etc .");
  assert.equal(words("see you at 5 p.m."), "see you at 5 p.m .");
  assert.equal(words("Enron Inc.."), "Enron Inc. .");
  assert.equal(words("it ended."), "it ended .");
});

test("numbers, money, times and dates", () => {
  assert.equal(
    words("$5 and $3.50, 1,000 people at 10:30 on 11/28/2000."),
    "$ 5 and $ 3.50 , 1,000 people at 10:30 on 11/28/2000 .",
  );
  assert.equal(words("100% of 9/11 and 1/2 cup"), "100 % of 9/11 and 1 / 2 cup");
  assert.equal(words("call 713-853-3989 or 345-9945"), "call 713-853-3989 or 345-9945");
  assert.equal(words("from 5-10 in 1969-1970, 5:00-8:30"), "from 5 - 10 in 1969 - 1970 , 5:00 - 8:30");
  assert.equal(words("at 7:30PM or 5pm, the 5th and 90s"), "at 7:30 PM or 5 pm , the 5th and 90s");
  assert.equal(words("call +44 now, only $.04"), "call +44 now , only $ .04");
});

test("hyphens split except after known prefixes", () => {
  assert.equal(words("a well-known non-profit e-mail"), "a well - known non-profit e-mail");
  assert.equal(words("state-of-the-art re-read"), "state - of - the - art re-read");
});

test("punctuation runs, quotes and brackets", () => {
  assert.equal(words("Really?! Wow... ok!!! (yes)"), "Really ?! Wow ... ok !!! ( yes )");
  assert.equal(words('He said "no" -- twice.'), 'He said " no " -- twice .');
  assert.equal(words("====== ***"), "====== ***");
});

test("URLs, e-mail addresses and emoticons stay whole", () => {
  assert.equal(
    words("See http://www.example.com/a_b.html?x=1."),
    "See http://www.example.com/a_b.html?x=1 .",
  );
  assert.equal(words("(www.google.com)"), "( www.google.com )");
  assert.equal(
    words("Mail john.smith@enron.com, or <a@b.org>."),
    "Mail john.smith@enron.com , or < a@b.org > .",
  );
  assert.equal(words("Notes: Sara Shackleton/HOU/ECT@ECT"), "Notes : Sara Shackleton / HOU / ECT@ECT");
  assert.equal(words("great :) thanks :-( ;)"), "great :) thanks :-( ;)");
  assert.equal(words("love it #audiobooks ^_^"), "love it #audiobooks ^_^");
});

test("offsets and SpaceAfter", () => {
  const text = "  Hi, you're\tthere.";
  const t = tokenize(text);
  for (const w of t.words) assert.equal(text.slice(w.start, w.end), w.form);
  assert.deepEqual(
    t.words.map((w) => w.spaceAfter),
    [false, true, false, true, false, true],
  );
  assert.equal(t.tokens.length, 5);
  assert.deepEqual(tokenize("").words, []);
  // a sub-range keeps offsets into the whole string
  const sub = tokenize("xx don't", 3);
  assert.deepEqual(
    sub.words.map((w) => [w.form, w.start]),
    [
      ["do", 3],
      ["n't", 5],
    ],
  );
});

test("sentence splitting", () => {
  const text = "Mr. Smith came at 5 p.m. yesterday. He left! did he? Yes...\n\nNew paragraph here\nand here";
  const s = segmentText(text).map((x) => text.slice(x.start, x.end));
  assert.deepEqual(s, [
    "Mr. Smith came at 5 p.m. yesterday.",
    "He left!",
    "did he?",
    "Yes...",
    "New paragraph here\nand here",
  ]);
  const lines = segmentText("one line\nanother line", { newlineBoundary: true });
  assert.equal(lines.length, 2);
  assert.deepEqual(
    lines[1]!.words.map((w) => w.form),
    ["another", "line"],
  );
  assert.equal(lines[1]!.tokens[0]!.firstWord, 0);
  const listText = "Items:\n1. The first one.\n2. The second.";
  assert.deepEqual(
    segmentText(listText).map((x) => listText.slice(x.start, x.end)),
    ["Items:\n1. The first one.", "2. The second."],
  );
  assert.equal(segmentText("Acme Inc. The company grew. It sold 3.5 tons.").length, 3);
});

test("no pathological slow-down on long unbroken input", () => {
  const long = `${"a.".repeat(50_000)} ${"-".repeat(100_000)} ${"x'".repeat(50_000)} ${"1,".repeat(50_000)}`;
  const t0 = performance.now();
  const t = tokenize(long);
  assert.ok(t.words.length > 0);
  assert.ok(performance.now() - t0 < 2000);
});

/** Sentence texts of `text` split with at most `maxWords` words each. */
function capped(text: string, maxWords: number): string[] {
  return segmentText(text, { maxWords }).map((x) => text.slice(x.start, x.end));
}

test("long sentences are cut: at a line break, else after ; or :, else a comma, else a token boundary", () => {
  assert.deepEqual(capped("a b c d e f g h i j", 4), ["a b c d", "e f g h", "i j"]);
  // The comma beats a later plain boundary; the search stays in the second half of the window.
  assert.deepEqual(capped("a b , c d e f", 5), ["a b ,", "c d e f"]);
  // A line break beats a later semicolon, a semicolon beats a later comma.
  // (Cuts are searched in the second half of the window: words 3..6 of a 6-word window.)
  assert.deepEqual(capped("a b c\nd ; e , f g h i", 6), ["a b c", "d ; e ,", "f g h i"]);
  assert.deepEqual(capped("a b c ; d , e f g", 6), ["a b c ;", "d , e f g"]);
  // Never inside a token: "didn't" is the two words "did" + "n't".
  assert.deepEqual(capped("w x y didn't z", 4), ["w x y", "didn't z"]);
  // No cap, and sentences within the cap are left alone.
  assert.equal(capped("a b c d e f g h i j", 0).length, 1);
  assert.deepEqual(capped("One two. Three four five.", 4), ["One two.", "Three four five."]);
  // The default cap: a 1,000-word run without punctuation becomes 4 sentences of 250 words.
  const long = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(" ");
  const parts = segmentText(long);
  assert.equal(MAX_SENTENCE_WORDS, 250);
  assert.deepEqual(
    parts.map((p) => p.words.length),
    [250, 250, 250, 250],
  );
  assert.equal(parts[1]!.words[0]!.form, "w250");
  assert.equal(parts[1]!.start, long.indexOf("w250"));
});

test("capSentenceLength keeps existing starts and only adds cuts", () => {
  const text = "a b c d e f g h";
  const tok = tokenize(text, 0, text.length);
  assert.deepEqual(capSentenceLength(text, tok, [2, 8], 3), [2, 5, 8]);
  assert.deepEqual(capSentenceLength(text, tok, [8], 0), [8]);
});
