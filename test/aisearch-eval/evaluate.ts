/**
 * Scores a topic finder against the labelled queries in `queries.json`.
 *
 * Labels name segment ranges, inclusive: `relevant` ranges are what the query
 * should find (recall counts them, and a mention in one is correct);
 * `alsoRelevant` ranges are about the topic but not findable from the text
 * (a recogniser wrote other words) or only loosely about it: a mention there
 * is not an error, but missing it is not either. A mention is placed by
 * locating its quote in the transcript text.
 *
 * Recall per query is regions found / min(regions, maxMentions), since the
 * finder returns at most maxMentions; category figures add up queries
 * (micro-averaged). Absent-topic queries must come back with found: false.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transcriptText, type SearchableTranscript } from '../../src/core/aisearch/searchable-transcript.js';
import type { TopicFinder } from '../../src/core/aisearch/topic-finder.js';
import { makeLongTranscript } from './long-transcript.js';

/**
 * `category` queries name a class whose members the transcript names
 * ("vegetables" for "cherry tomatoes and runner beans").
 * `paraphrase` queries name a topic the transcript discusses in other words
 * than any synonym of the query ("insomnia" for "can't drop off at night"):
 * beyond word matching, reported to show where re-ranking must help.
 */
export type Category = 'exact' | 'inflection' | 'synonym' | 'category' | 'misspelled' | 'paraphrase' | 'absent';
export const CATEGORIES: Category[] = ['exact', 'inflection', 'synonym', 'category', 'misspelled', 'paraphrase', 'absent'];

type Range = [number] | [number, number];

export interface LabelledQuery {
  transcript: string;
  topic: string;
  category: Category;
  relevant?: Range[];
  alsoRelevant?: Range[];
  /** For the generated transcript: the planted topic whose segments are relevant. */
  planted?: string;
  note?: string;
}

export interface QueryOutcome {
  transcript: string;
  topic: string;
  category: Category;
  found: boolean;
  mentions: number;
  correct: number;
  regions: number;
  regionsFound: number;
  /** Quotes of mentions outside every labelled range. */
  wrong: string[];
  misplacedTimes: number;
  invalidQuotes: number;
  ms: number;
}

export interface CategoryStats {
  queries: number;
  mentions: number;
  correct: number;
  /** Regions counted for recall (capped per query at maxMentions). */
  expected: number;
  regionsFound: number;
  precision: number;
  recall: number;
}

export interface EvalReport {
  categories: Record<Category, CategoryStats>;
  overall: { precision: number; recall: number };
  /** Absent-topic queries answered found: true. */
  falseFound: number;
  misplacedTimes: number;
  invalidQuotes: number;
  queries: QueryOutcome[];
}

const here = dirname(fileURLToPath(import.meta.url));

/** The labelled queries. */
export function loadQueries(): LabelledQuery[] {
  return JSON.parse(readFileSync(join(here, 'queries.json'), 'utf8')) as LabelledQuery[];
}

/** Every transcript of the set by name, plus the planted segments of the generated one. */
export function loadTranscripts(): { docs: Map<string, SearchableTranscript>; planted: Record<string, number[]> } {
  const docs = new Map<string, SearchableTranscript>();
  for (const name of ['sense-ch1-asr', 'sense-ch12-asr', 'sense-ch13-asr', 'sense-ch2-publisher', 'commute-podcast', 'kitchen-podcast']) {
    docs.set(name, JSON.parse(readFileSync(join(here, 'transcripts', `${name}.json`), 'utf8')) as SearchableTranscript);
  }
  const long = makeLongTranscript();
  docs.set('long-synthetic', long.doc);
  return { docs, planted: long.planted };
}

function inRange(segment: number, r: Range): boolean {
  return segment >= r[0] && segment <= (r[1] ?? r[0]);
}

/** The segment a quote was cut from: the occurrence whose segment holds the mention's time, else the first. */
function segmentOf(doc: SearchableTranscript, text: string, quote: string, time: number | null): number {
  const starts: number[] = [];
  let offset = 0;
  for (const s of doc.segments) {
    starts.push(offset);
    offset += s.text.length + 1;
  }
  const segAt = (at: number): number => {
    let i = starts.length - 1;
    while (i > 0 && starts[i] > at) i--;
    return i;
  };
  let first = -1;
  for (let at = text.indexOf(quote); at >= 0; at = text.indexOf(quote, at + 1)) {
    const seg = segAt(at);
    if (first < 0) first = seg;
    const s = doc.segments[seg];
    if (time !== null && time >= s.start - 0.5 && time <= s.end + 0.5) return seg;
  }
  return first;
}

function ratio(a: number, b: number): number {
  return b === 0 ? 1 : a / b;
}

/**
 * Runs every labelled query through `finder` and scores it.
 *
 * @param maxMentions The finder's mention limit, which caps what recall can expect. Default: 5.
 */
export function evaluate(finder: TopicFinder, options: { maxMentions?: number } = {}): EvalReport {
  const maxMentions = options.maxMentions ?? 5;
  const { docs, planted } = loadTranscripts();
  const texts = new Map([...docs].map(([name, doc]) => [name, transcriptText(doc)]));
  const outcomes: QueryOutcome[] = [];
  for (const q of loadQueries()) {
    const doc = docs.get(q.transcript);
    if (!doc) throw new Error(`unknown transcript ${q.transcript}`);
    const text = texts.get(q.transcript)!;
    const relevant: Range[] = q.planted ? (planted[q.planted] ?? []).map((s): Range => [s]) : (q.relevant ?? []);
    const accepted = [...relevant, ...(q.alsoRelevant ?? [])];
    const started = performance.now();
    const result = finder.find(doc, q.topic);
    const ms = performance.now() - started;
    let correct = 0;
    let misplacedTimes = 0;
    let invalidQuotes = 0;
    const wrong: string[] = [];
    const hitSegments: number[] = [];
    for (const m of result.mentions) {
      if (!text.includes(m.quote)) {
        invalidQuotes++;
        continue;
      }
      const seg = segmentOf(doc, text, m.quote, m.timestampSeconds);
      hitSegments.push(seg);
      const s = doc.segments[seg];
      const placeable = Number.isFinite(s.start);
      const timeOk =
        m.timestampSeconds === null ? !placeable : m.timestampSeconds >= s.start - 0.5 && m.timestampSeconds <= s.end + 0.5;
      if (!timeOk) misplacedTimes++;
      if (accepted.some((r) => inRange(seg, r))) correct++;
      else wrong.push(m.quote);
    }
    const regionsFound = relevant.filter((r) => hitSegments.some((seg) => inRange(seg, r))).length;
    outcomes.push({
      transcript: q.transcript,
      topic: q.topic,
      category: q.category,
      found: result.found,
      mentions: result.mentions.length,
      correct,
      regions: q.category === 'absent' ? 0 : Math.min(relevant.length, maxMentions),
      regionsFound: Math.min(regionsFound, maxMentions),
      wrong,
      misplacedTimes,
      invalidQuotes,
      ms,
    });
  }

  const categories = {} as Record<Category, CategoryStats>;
  for (const c of CATEGORIES) {
    const qs = outcomes.filter((o) => o.category === c);
    const mentions = qs.reduce((s, o) => s + o.mentions, 0);
    const correctSum = qs.reduce((s, o) => s + o.correct, 0);
    const expected = qs.reduce((s, o) => s + o.regions, 0);
    const regionsFound = qs.reduce((s, o) => s + o.regionsFound, 0);
    categories[c] = {
      queries: qs.length,
      mentions,
      correct: correctSum,
      expected,
      regionsFound,
      precision: ratio(correctSum, mentions),
      recall: c === 'absent' ? 1 : ratio(regionsFound, expected),
    };
  }
  const present = outcomes.filter((o) => o.category !== 'absent');
  return {
    categories,
    overall: {
      precision: ratio(
        present.reduce((s, o) => s + o.correct, 0),
        present.reduce((s, o) => s + o.mentions, 0),
      ),
      recall: ratio(
        present.reduce((s, o) => s + o.regionsFound, 0),
        present.reduce((s, o) => s + o.regions, 0),
      ),
    },
    falseFound: outcomes.filter((o) => o.category === 'absent' && o.found).length,
    misplacedTimes: outcomes.reduce((s, o) => s + o.misplacedTimes, 0),
    invalidQuotes: outcomes.reduce((s, o) => s + o.invalidQuotes, 0),
    queries: outcomes,
  };
}

/** The report as a plain-text table. */
export function formatReport(report: EvalReport): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`.padStart(7);
  const lines = ['category     queries  mentions  precision  recall'];
  for (const c of CATEGORIES) {
    const s = report.categories[c];
    const recall = c === 'absent' ? `${report.falseFound} found`.padStart(7) : pct(s.recall);
    lines.push(`${c.padEnd(12)} ${String(s.queries).padStart(7)} ${String(s.mentions).padStart(9)}   ${pct(s.precision)}  ${recall}`);
  }
  lines.push(`${'overall'.padEnd(12)} ${String(report.queries.length).padStart(7)} ${''.padStart(9)}   ${pct(report.overall.precision)}  ${pct(report.overall.recall)}`);
  lines.push(`absent topics answered found: ${report.falseFound}; misplaced timestamps: ${report.misplacedTimes}; quotes not in the transcript: ${report.invalidQuotes}`);
  return lines.join('\n');
}
