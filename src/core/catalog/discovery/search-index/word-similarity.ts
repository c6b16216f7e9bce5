/** Longest word compared character by character; longer ones are cut (titles in scripts without spaces are one long "word"). */
const MAX_WORD = 48;

// Three rows of the distance table, reused by every call: ranking compares
// thousands of word pairs per search, so nothing is allocated per call.
const W = MAX_WORD + 1;
const table = new Int32Array(3 * W);

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent
 * transpositions, so "teh" is one edit from "the"), giving up with
 * `limit + 1` once the distance must exceed `limit`.
 *
 * @param limit largest distance of interest. Default: Infinity.
 * @example osaDistance('rogen', 'rogan') // 1
 */
export function osaDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (a.length > MAX_WORD) a = a.slice(0, MAX_WORD);
  if (b.length > MAX_WORD) b = b.slice(0, MAX_WORD);
  const n = b.length;
  if (Math.abs(a.length - n) > limit) return limit + 1;
  if (!a.length || !n) return Math.max(a.length, n);
  // Row offsets into `table`: two rows back, the previous row, the current row.
  let back = 0;
  let prev = W;
  let cur = 2 * W;
  for (let j = 0; j <= n; j++) table[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    table[cur] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    const caBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = table[prev + j - 1]! + (ca === cb ? 0 : 1);
      const del = table[prev + j]! + 1;
      const ins = table[cur + j - 1]! + 1;
      if (del < v) v = del;
      if (ins < v) v = ins;
      if (j > 1 && ca === b.charCodeAt(j - 2) && caBefore === cb && table[back + j - 2]! + 1 < v) v = table[back + j - 2]! + 1;
      table[cur + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    const t = back;
    back = prev;
    prev = cur;
    cur = t;
  }
  return table[prev + n]!;
}

/** Credit for a query word that begins a title word (people type "huberman" for "hubermanlab"). */
const PREFIX_CREDIT = 0.85;

/**
 * 1 for equal words, falling with each edit relative to the longer word; a
 * query word of 3+ characters that begins the title word scores at least
 * 0.85. Returns 0 when the result could not beat `atLeast`.
 */
export function wordSimilarity(query: string, word: string, atLeast = 0): number {
  const longest = Math.max(query.length, word.length);
  const prefix = query.length >= 3 && word.startsWith(query) ? PREFIX_CREDIT : 0;
  const limit = Math.floor((1 - Math.max(atLeast, prefix)) * longest);
  const d = osaDistance(query, word, limit);
  return Math.max(d > limit ? 0 : 1 - d / longest, prefix);
}

/**
 * Each run of two and three neighbouring words glued together, so the
 * query word "dhunplugged" meets "dh" + "unplugged".
 */
export function gluedTokens(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    out.push(words[i]! + words[i + 1]!);
    if (i + 2 < words.length) out.push(words[i]! + words[i + 1]! + words[i + 2]!);
  }
  return out;
}

/** Query words compared at most; a longer query is still matched, by trigrams. */
const MAX_QUERY_WORDS = 12;

/** The best similarity of `word` to any of `tokens`, and the length of the token that gave it. */
function bestMatch(word: string, tokens: readonly string[]): { score: number; length: number } {
  let best = 0;
  let length = 0;
  for (const t of tokens) {
    // The length difference alone may rule out beating `best`.
    const bound = 1 - Math.abs(t.length - word.length) / Math.max(t.length, word.length);
    if (bound <= best && !(PREFIX_CREDIT > best && word.length >= 3 && t.startsWith(word))) continue;
    const s = wordSimilarity(word, t, best);
    if (s > best) {
      best = s;
      length = t.length;
    }
    if (best === 1) break;
  }
  return { score: best, length };
}

/** Below this, a query word is also tried against glued title words, and the query glued into one word. */
const GLUE_BELOW = 0.9;

/**
 * How well the query's words appear in a title, 0..1: each query word's best
 * similarity to a title word, averaged with longer words weighing more
 * ("the" matters less than "unplugged"). Words run together on either side
 * are matched too: title words glued in twos and threes ("dh" + "unplugged"
 * for "dhunplugged"), and the whole query glued ("smart less" for
 * "SmartLess"); both are tried only when plain words fall short, since
 * ranking compares thousands of titles per search.
 *
 * @example wordMatch('joe rogen', 'the joe rogan experience') // (3·1 + 5·0.8) / 8 = 0.875
 */
export function wordMatch(queryName: string, titleName: string): number {
  const words = queryName.split(' ').slice(0, MAX_QUERY_WORDS);
  const titleWords = titleName.split(' ');
  let glued: string[] | null = null;
  let total = 0;
  let weight = 0;
  for (const w of words) {
    const plain = bestMatch(w, titleWords);
    let best = plain.score;
    // Glued title words can only help a query word clearly longer than the title word it matched best.
    if (best < GLUE_BELOW && titleWords.length > 1 && w.length >= plain.length + 2) {
      best = Math.max(best, bestMatch(w, (glued ??= gluedTokens(titleWords))).score);
    }
    total += best * w.length;
    weight += w.length;
  }
  const separate = weight ? total / weight : 0;
  if (words.length < 2 || separate >= GLUE_BELOW) return separate;
  // The query glued can only help when some title word is clearly longer than every query word.
  const longestQueryWord = Math.max(...words.map((w) => w.length));
  if (!titleWords.some((t) => t.length >= longestQueryWord + 2)) return separate;
  const whole = words.join('');
  return Math.max(separate, bestMatch(whole, titleWords).score, titleWords.length > 1 ? bestMatch(whole, (glued ??= gluedTokens(titleWords))).score : 0);
}
