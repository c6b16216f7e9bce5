import type { RelatedTerms } from './related-terms.js';
import { FILLER_NOUNS, QUERY_FILLERS, STOPWORDS, TITLE_WORDS } from './stopwords.js';
import { tokenize } from './text-tokens.js';
import { MIN_NAME_LENGTH } from './name-variants.js';
import { inflectedForms } from './word-forms.js';

/** One way a concept can appear in the transcript: a sequence of stems. */
export interface Alternative {
  stems: string[];
  /** The dictionary words behind the stems, to reject stem collisions ("general" and "generous" both stem to "gener"). */
  words: string[];
  /** 1 for the word itself, less for relatives. */
  weight: number;
  kind: 'exact' | 'related';
  /** The spelling that produced it, for summaries and debugging. */
  label: string;
  /** For relatives: the ambiguity discounts inside `weight`, which evidence in the transcript may lift. */
  doubt?: Doubt;
}

/** Why a relative's weight was lowered, so a match in context can undo it. */
export interface Doubt {
  /** Factor for the linking sense not being the word's most frequent one (1 when it is). */
  sense: number;
  /** Factor for the word mostly being another part of speech (1 when not). */
  pos: number;
  /** True when the linking sense is a noun, so a determiner before the word shows the sense's part of speech. */
  noun: boolean;
  /**
   * True for narrower words of the topic word's first sense ("nap" for "sleep"): every use of them
   * in the linking sense implies the topic. Narrower words of a later sense ("lake" under "water"
   * as a body of water) depend on the topic meaning that sense.
   */
  narrower: boolean;
  /** Set when the relative names one thing ("Nero" for "Roman emperor"); see `RelatedTerm.instance`. */
  instance: 'name' | 'word' | null;
}

/** One thing the topic asks for: a word, a compound, a quoted phrase or a name. */
export interface Concept {
  text: string;
  /** Share of the topic this concept carries. 1, or 0.3 for titles such as "Colonel". */
  weight: number;
  /** Quoted phrases must appear, as written, in the quoted sentence. */
  required: boolean;
  alternatives: Alternative[];
  /** Words to look for under other spellings, how strictly, and what a match counts (0–1). */
  variants: { word: string; strict: boolean; factor: number }[];
}

export interface ParsedTopic {
  concepts: Concept[];
  /** Pairs of concept indexes that stand next to each other in the topic ("Colonel Brandon"). */
  adjacent: [number, number][];
}

/** Whether a topic names anything a transcript's words could match: more than function words ("the", "and"). */
export function namesSomething(topic: string): boolean {
  return tokenize(topic).some((t) => !STOPWORDS.has(t.norm) && t.norm.length > 1);
}

/**
 * Turns a topic into concepts. Quoted phrases become required phrases;
 * stopwords and filler ("talk about", "mention of") are dropped; adjacent
 * words that WordNet knows as one lemma become a compound; every other word
 * gets its stem, its WordNet relatives and, when long enough, a name-variant
 * search.
 *
 * @param stem The same stemming the transcript was prepared with.
 */
export function parseTopic(topic: string, related: RelatedTerms, stem: (norm: string) => string): ParsedTopic {
  const concepts: Concept[] = [];
  const adjacent: [number, number][] = [];
  const seen = new Set<string>();

  const quoted = /["“”„]([^"“”„]+)["“”„]/g;
  for (const m of topic.matchAll(quoted)) {
    const words = tokenize(m[1]).map((t) => t.norm);
    if (words.length === 0 || words.every((w) => STOPWORDS.has(w))) continue;
    const stems = words.map(stem);
    const key = stems.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    concepts.push({
      text: m[1].trim(),
      weight: 1,
      required: true,
      alternatives: [{ stems, words, weight: 1, kind: 'exact', label: words.join(' ') }],
      variants: [],
    });
  }

  const unquoted = topic.replace(quoted, ' | ');
  const rest = tokenize(unquoted).map((t) => ({ norm: t.norm, capital: /^\p{Lu}/u.test(unquoted.slice(t.start, t.end)) }));
  // Keep positions so adjacency survives the removal of stopwords only where nothing was removed.
  const words = rest.map(({ norm, capital }, i) => ({ w: norm, capital, i })).filter(({ w }) => !STOPWORDS.has(w) && w.length > 1);
  let content = words.filter(({ w }) => !QUERY_FILLERS.has(w));
  // Nothing but fillers: the things among them ("podcast", "episode") are what is asked for.
  if (content.length === 0 && concepts.length === 0) content = words.filter(({ w }) => FILLER_NOUNS.has(w));
  const nameLike = (x: { w: string; capital: boolean }): boolean =>
    /^[a-z]+$/.test(x.w) && !TITLE_WORDS.has(x.w) && !related.isCommonWord(x.w) && (x.capital || !related.isKnown(x.w));

  let previous: { index: number; position: number } | null = null;
  for (let k = 0; k < content.length; k++) {
    const { w, i, capital } = content[k];
    const next = content[k + 1];
    // A full name ("Siobhan Kearney"): either part alone is still the person.
    if (next && next.i === i + 1 && nameLike(content[k]) && nameLike(next)) {
      const parts = [w];
      while (k + 1 < content.length && content[k + 1].i === i + parts.length && nameLike(content[k + 1])) parts.push(content[++k].w);
      const key = parts.map(stem).join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      const factor = (j: number): number => (j === parts.length - 1 ? 0.85 : 0.75);
      concepts.push({
        text: parts.join(' '),
        weight: 1,
        required: false,
        alternatives: [
          { stems: parts.map(stem), words: parts, weight: 1, kind: 'exact', label: parts.join(' ') },
          ...parts.map((part, j): Alternative => ({ stems: [stem(part)], words: [part], weight: factor(j), kind: 'exact', label: part })),
        ],
        variants: parts.filter((part) => part.length >= MIN_NAME_LENGTH).map((part) => ({ word: part, strict: false, factor: factor(parts.indexOf(part)) })),
      });
      const index = concepts.length - 1;
      if (previous && previous.position === i - 1) adjacent.push([previous.index, index]);
      previous = { index, position: i + parts.length - 1 };
      continue;
    }
    let words = [w];
    if (next && next.i === i + 1 && !TITLE_WORDS.has(w) && related.isCompound([w, next.w])) {
      words = [w, next.w];
      k++;
    }
    const text = words.join(' ');
    const stems = words.map(stem);
    const key = stems.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    const title = words.length === 1 && TITLE_WORDS.has(w);
    // The word as typed, its dictionary forms ("buses" -> "bus") and their inflections all count as the word itself.
    const lastForms = [words[words.length - 1], ...(title ? [] : related.baseForms(words[words.length - 1]))];
    const alternatives: Alternative[] = [];
    const known = new Set<string>();
    for (const last of lastForms) {
      const base = [...words.slice(0, -1), last];
      for (const stems of formsOf(base, stem)) {
        const key = `${stems.join(' ')}|${last}`;
        if (known.has(key)) continue;
        known.add(key);
        alternatives.push({ stems, words: base, weight: 1, kind: 'exact', label: text });
      }
    }
    if (!title) {
      for (const r of related.related(text)) {
        const rWords = tokenize(r.lemma).map((t) => t.norm);
        if (rWords.length === 0 || rWords.every((w) => STOPWORDS.has(w))) continue;
        for (const rStems of formsOf(rWords, stem)) {
          const rKey = `${rStems.join(' ')}|${rWords[rWords.length - 1]}`;
          if (known.has(rKey)) continue;
          known.add(rKey);
          const doubt = { sense: r.senseDiscount, pos: r.posDiscount, noun: r.pos === 'n', narrower: (r.relation === 'hyponym' || r.relation === 'member') && r.firstSense, instance: r.instance };
          alternatives.push({ stems: rStems, words: rWords, weight: r.weight, kind: 'related', label: r.lemma, doubt });
        }
      }
    }
    // Dictionary words are only matched loosely for one-letter slips; names typed as names get the full search.
    const variants =
      !title && words.length === 1 && w.length >= MIN_NAME_LENGTH && /^[a-z]+$/.test(w)
        ? [{ word: w, strict: related.isCommonWord(w) || (related.isKnown(w) && !capital), factor: 1 }]
        : [];
    concepts.push({ text, weight: title ? 0.3 : 1, required: false, alternatives, variants });
    const index = concepts.length - 1;
    if (previous && previous.position === i - 1) adjacent.push([previous.index, index]);
    previous = { index, position: i + words.length - 1 };
  }
  return { concepts, adjacent };
}

/** Stem sequences of a word or compound, with the last word in each of its likely inflections. */
function formsOf(words: string[], stem: (norm: string) => string): string[][] {
  const head = words.slice(0, -1).map(stem);
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const form of inflectedForms(words[words.length - 1])) {
    const stems = [...head, stem(form)];
    const key = stems.join(' ');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(stems);
    }
  }
  return out;
}
