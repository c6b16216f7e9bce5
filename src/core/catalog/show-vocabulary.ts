/**
 * The words a show uses that a general speech model does not know: its
 * title, its hosts and guests, the places and names in its episode titles
 * and notes, and in transcripts its publisher wrote for earlier episodes.
 * Recognisers get them as vocabulary (see `TranscribeOptions.vocabulary`).
 */
export interface VocabularySource {
  show: { title: string; author: string | null };
  episodes: readonly {
    title: string;
    description: string | null;
    persons?: readonly { name: string }[];
  }[];
  /** Text of publisher transcripts of earlier episodes. */
  transcripts?: readonly string[];
}

export interface ShowVocabularyOptions {
  /** Most phrases returned. Default: 100. */
  max?: number;
  /**
   * True for everyday words that need no help ("Welcome", "Monday"): a
   * capitalised word the recogniser already knows well is left out unless
   * it is part of a longer name. Default: nothing is everyday.
   */
  isCommonWord?: (word: string) => boolean;
}

/** Capitalised words that start sentences or titles without being names. */
const NOT_NAMES = new Set(
  `a an the and or but if so of in on at to for with from by about after before our my your his her their its this that these those
  we i you he she they it episode part season chapter bonus trailer interview live special today tonight this week
  welcome hello hi thanks thank yes no okay mr mrs ms dr`.split(/\s+/),
);

/** Runs of capitalised words ("Chidi Okonkwo", "Harcourt Road") that do not start a sentence or are known persons. */
function capitalisedRuns(text: string): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?:;])\s+|\n+/)) {
    const tokens = sentence.split(/\s+/).filter(Boolean);
    let run: string[] = [];
    const flush = (): void => {
      if (run.length) out.push(run.join(' '));
      run = [];
    };
    tokens.forEach((raw, i) => {
      const word = raw.replace(/^[^\p{L}]+|[^\p{L}']+$/gu, '').replace(/'s$/, '');
      const capital = /^\p{Lu}[\p{L}'-]*$/u.test(word) && word !== word.toUpperCase();
      // The first word of a sentence is capitalised anyway: only kept when the next word continues a name.
      if (capital && !NOT_NAMES.has(word.toLowerCase()) && (i > 0 || /^\p{Lu}/u.test(tokens[1] ?? ''))) {
        run.push(word);
        if (/[,;:.!?)]$/.test(raw)) flush();
      } else flush();
    });
    flush();
  }
  return out;
}

/**
 * The show's vocabulary, most telling first: people the feed names
 * (`podcast:person`), the author, the title, then names found in episode
 * titles, notes and earlier transcripts, by how often they occur. Each full
 * name is followed by its longer parts, since a guest is often called by one
 * name alone later on.
 *
 * @example
 * showVocabulary({ show: { title: 'The Commute', author: 'Dana Hale' }, episodes: [{ title: 'Who owns the street? With Siobhan Kearney', description: null }] })
 * // ['Dana Hale', 'Siobhan Kearney', 'The Commute', 'Kearney', 'Siobhan', …]
 */
export function showVocabulary(source: VocabularySource, options: ShowVocabularyOptions = {}): string[] {
  const max = options.max ?? 100;
  const isCommon = options.isCommonWord ?? (() => false);
  const scores = new Map<string, { text: string; score: number }>();
  const add = (text: string, score: number): void => {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean.length < 3 || clean.length > 60) return;
    const words = clean.split(' ');
    if (words.length > 4) return;
    if (words.length === 1 && (NOT_NAMES.has(clean.toLowerCase()) || isCommon(clean.toLowerCase()))) return;
    const key = clean.toLowerCase();
    const prev = scores.get(key);
    scores.set(key, { text: prev?.text ?? clean, score: (prev?.score ?? 0) + score });
  };
  const addName = (name: string, score: number): void => {
    add(name, score);
    const parts = name.split(/\s+/);
    // Parts of a name, for when a guest is later called by one of them; short ones are spotted everywhere.
    if (parts.length > 1) for (const part of parts) if (part.length >= 5) add(part, score / 4);
  };

  for (const e of source.episodes) for (const p of e.persons ?? []) addName(p.name, 10);
  if (source.show.author) for (const a of source.show.author.split(/\s*(?:,|&|\band\b)\s*/)) addName(a, 8);
  if (source.show.title) add(source.show.title.replace(/^the\s+/i, 'The '), 6);
  const texts = [
    ...source.episodes.flatMap((e) => [e.title, e.description ?? '']),
    ...(source.transcripts ?? []),
  ];
  for (const text of texts) for (const run of capitalisedRuns(text)) addName(run, run.includes(' ') ? 2 : 1);

  return [...scores.values()]
    .sort((a, b) => b.score - a.score || a.text.localeCompare(b.text))
    .slice(0, max)
    .map((v) => v.text);
}
