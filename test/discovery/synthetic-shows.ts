import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { csvRecords } from '../../src/core/catalog/imports/csv-records.js';
import { seededRandom } from '../../src/core/seeded-random.js';

/** A show to seed: the columns search and trending read. */
export interface SeedShow {
  id: number;
  title: string;
  author: string;
  language: string;
  categories: string[];
  /** Podcast Index scale: mostly 0, a few up to ~29. */
  popularity: number;
}

const NEWSFEEDS = new URL('../fixtures/podcastindex/newsfeeds-sample-1000rows.csv', import.meta.url);
const CHART = new URL('../fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json', import.meta.url);

const SUFFIXES = ['Podcast', 'Show', 'Radio', 'Hour', 'Talk', 'Daily', 'Weekly', 'Report', 'Sessions', 'Pod', 'Cast', 'Live', 'Unplugged', 'Uncut', '', '', '', ''];
const FIRST = ['Joe', 'Dan', 'Sarah', 'Mike', 'Emma', 'Chris', 'Anna', 'Lenny', 'Dave', 'Dale', 'Daisy', 'Rob', 'Kate', 'Tom', 'Lisa', 'Mark', 'Paul', 'Amy', 'Ben', 'Zoe', 'Rogers', 'Ray'];
const LAST = ['Smith', 'Rogers', 'Logan', 'Daly', 'Ramsey', 'Unger', 'Carter', 'Bailey', 'Hughes', 'Cafferty', 'Plunkett', 'Rowan', 'Jensen', 'Moreau', 'Dalton', 'Harper', 'Lennon', 'Kaye', 'Roth', 'Duval'];
const CATEGORIES = ['News', 'Comedy', 'Society', 'Culture', 'Technology', 'Business', 'Sports', 'Music', 'History', 'Education', 'Health', 'Fitness', 'True Crime', 'Religion', 'Christianity', 'Arts', 'Science', 'Leisure'];
const LANGUAGES = ['en', 'en', 'en', 'en', 'en-us', 'en-US', 'es', 'de', 'fr', 'pt-br'];

interface Corpus {
  titles: string[];
  authors: string[];
  /** Words from real show descriptions, repeated as often as they occur (so sampling is Zipf-like). */
  words: string[];
}

async function loadCorpus(): Promise<Corpus> {
  const titles: string[] = [];
  const authors: string[] = [];
  const words: string[] = [];
  let header: string[] | null = null;
  for await (const record of csvRecords(createReadStream(NEWSFEEDS))) {
    if (!header) {
      header = record as string[];
      continue;
    }
    const title = record[header.indexOf('title')];
    const author = record[header.indexOf('itunes_author')];
    const description = record[header.indexOf('description')] ?? '';
    if (title && /^[\x20-\x7e]+$/.test(title)) titles.push(title);
    if (author) authors.push(author);
    for (const w of description.match(/[A-Za-z][a-z]{2,11}/g) ?? []) words.push(w[0]!.toUpperCase() + w.slice(1));
  }
  const chart = JSON.parse(await readFile(CHART, 'utf8')) as { feed: { entry: { 'im:name': { label: string } }[] } };
  for (const e of chart.feed.entry) titles.push(e['im:name'].label);
  return { titles, authors, words };
}

/**
 * `count` realistic synthetic shows: real published titles from the Podcast
 * Index sample and an Apple chart, recombined with words of real show
 * descriptions and common title shapes ("X Podcast", "The X Show", "First
 * Last Show"). Trigram statistics therefore look like a real directory's,
 * which is what makes a search test or benchmark honest. Popularity follows
 * the Podcast Index's skew: most shows 0, a few high. Deterministic per `seed`.
 */
export async function syntheticShows(count: number, options: { firstId?: number; seed?: number } = {}): Promise<SeedShow[]> {
  const corpus = await loadCorpus();
  const rnd = seededRandom(options.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const firstId = options.firstId ?? 1;
  const out: SeedShow[] = [];
  for (let i = 0; i < count; i++) {
    const shape = rnd();
    let title: string;
    if (shape < 0.35) {
      const parts = pick(corpus.titles).split(' ');
      const at = Math.floor(rnd() * parts.length);
      parts[at] = pick(corpus.words);
      title = parts.join(' ');
    } else if (shape < 0.7) {
      const n = 1 + Math.floor(rnd() * 3);
      title = `${rnd() < 0.3 ? 'The ' : ''}${Array.from({ length: n }, () => pick(corpus.words)).join(' ')} ${pick(SUFFIXES)}`.trim();
    } else if (shape < 0.85) {
      title = `${pick(FIRST)} ${pick(LAST)} ${pick(SUFFIXES)}`.trim();
    } else {
      title = `${pick(corpus.words)} ${rnd() < 0.5 ? '&' : 'and'} ${pick(corpus.words)}${rnd() < 0.5 ? ` ${pick(SUFFIXES)}` : ''}`.trim();
    }
    const popular = rnd();
    out.push({
      id: firstId + i,
      title,
      author: pick(corpus.authors),
      language: pick(LANGUAGES),
      categories: [pick(CATEGORIES), ...(rnd() < 0.5 ? [pick(CATEGORIES)] : [])].filter((c, k, all) => all.indexOf(c) === k),
      popularity: popular < 0.7 ? 0 : popular < 0.97 ? Math.floor(rnd() * 10) : 10 + Math.floor(rnd() * 19),
    });
  }
  return out;
}
