/**
 * AI Search quality and latency: the evaluation set's precision and recall per
 * category, then query latency on the generated two-hour transcript after a
 * warm-up pass.
 *
 * Usage: `npx tsx bench/aisearch-quality.ts`
 */
import { fileURLToPath } from 'node:url';
import { createRelatedTerms } from '../src/core/aisearch/related-terms.js';
import { createTopicFinder } from '../src/core/aisearch/topic-finder.js';
import { evaluate, formatReport, loadQueries, type EvalReport } from '../test/aisearch-eval/evaluate.js';
import { makeLongTranscript } from '../test/aisearch-eval/long-transcript.js';

export interface AiSearchBenchResult {
  report: EvalReport;
  /** The same evaluation with one-step hyponyms only (no category members), as before members were read. */
  withoutMembers: EvalReport;
  /** Milliseconds to build the two-hour transcript's indexes, once. */
  prepareMs: number;
  /** Per-query latency on the two-hour transcript, warm, in milliseconds. */
  p50: number;
  p95: number;
  max: number;
  /** p95 of each topic's first query, which also reads WordNet and builds name-variant tables. */
  firstP95: number;
  queries: number;
  words: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Extra topics for the latency run, so it is not only the labelled ones. */
const latencyTopics = [
  'football season', 'coffee machine', 'guitar lessons', 'Lisbon', 'the kitchen renovation', 'running shoes',
  'weather forecast', 'quiz night', '"group chat"', 'music festival', 'photography', 'Spanish lessons',
  'a trip to Porto', 'the washing machine', 'pottery class', 'rock climbing', 'knitting', 'swimming pool',
];

/**
 * Runs the evaluation and the latency measurement.
 *
 * @param rounds Timed passes over the latency topics. Default: 5.
 */
export function runAiSearchBench(rounds = 5): AiSearchBenchResult {
  const report = evaluate(createTopicFinder());
  const withoutMembers = evaluate(createTopicFinder({ related: createRelatedTerms(undefined, { memberDepth: 1 }) }));
  const { doc } = makeLongTranscript();
  const finder = createTopicFinder();
  const started = performance.now();
  finder.prepare(doc);
  const prepareMs = performance.now() - started;
  const topics = [...loadQueries().filter((q) => q.transcript === 'long-synthetic').map((q) => q.topic), ...latencyTopics];
  // Warm-up: first use of a word reads WordNet from disk; that cost is paid once per process.
  const first: number[] = [];
  for (const t of topics) {
    const t0 = performance.now();
    finder.find(doc, t);
    first.push(performance.now() - t0);
  }
  first.sort((a, b) => a - b);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const t of topics) {
      const t0 = performance.now();
      finder.find(doc, t);
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return {
    report,
    withoutMembers,
    prepareMs,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times[times.length - 1],
    firstP95: percentile(first, 95),
    queries: times.length,
    words: doc.segments.reduce((n, s) => n + s.text.split(/\s+/).length, 0),
  };
}

/** The quality goals the evaluation test asserts, as `[name, met]` pairs. */
export function aiSearchGoals(r: AiSearchBenchResult): [string, boolean][] {
  const c = r.report.categories;
  return [
    ['exact recall >= 0.95', c.exact.recall >= 0.95],
    ['synonym recall >= 0.8', c.synonym.recall >= 0.8],
    ['misspelled recall >= 0.8', c.misspelled.recall >= 0.8],
    ['category precision >= 0.95', c.category.precision >= 0.95],
    ['overall precision >= 0.85', r.report.overall.precision >= 0.85],
    ['absent topics found: 0', r.report.falseFound === 0],
    ['warm p95 <= 50 ms', r.p95 <= 50],
  ];
}

/** The report as printed lines. */
export function aiSearchReport(r: AiSearchBenchResult): string[] {
  return [
    '## AI Search quality (evaluation set) and latency',
    formatReport(r.report),
    '',
    'before category members (one-step hyponyms only), same run:',
    formatReport(r.withoutMembers),
    '',
    `two-hour transcript: ${r.words} words; prepare ${r.prepareMs.toFixed(1)} ms`,
    `latency over ${r.queries} warm queries: p50 ${r.p50.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms, max ${r.max.toFixed(2)} ms`,
    `first query of each topic (cold WordNet lookups): p95 ${r.firstP95.toFixed(1)} ms`,
    '',
    ...aiSearchGoals(r).map(([goal, met]) => `${met ? 'met   ' : 'MISSED'} ${goal}`),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(aiSearchReport(runAiSearchBench()).join('\n'));
}
