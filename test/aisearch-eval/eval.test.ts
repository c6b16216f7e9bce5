import { describe, expect, it } from 'vitest';
import { createTopicFinder } from '../../src/core/aisearch/topic-finder.js';
import { evaluate, formatReport, loadQueries, loadTranscripts } from './evaluate.js';

describe('AI Search evaluation set', () => {
  const report = evaluate(createTopicFinder());

  it('is big and varied enough to mean something', () => {
    const queries = loadQueries();
    expect(queries.length).toBeGreaterThanOrEqual(40);
    expect(new Set(queries.map((q) => q.transcript)).size).toBeGreaterThanOrEqual(6);
    for (const c of ['exact', 'inflection', 'synonym', 'misspelled', 'absent'] as const) {
      expect(queries.filter((q) => q.category === c).length).toBeGreaterThanOrEqual(5);
    }
    const { docs } = loadTranscripts();
    const long = docs.get('long-synthetic')!;
    expect(long.segments.at(-1)!.end).toBeGreaterThanOrEqual(7200);
  });

  it('meets the quality goals', () => {
    console.log(formatReport(report));
    expect(report.categories.exact.recall).toBeGreaterThanOrEqual(0.95);
    expect(report.categories.synonym.recall).toBeGreaterThanOrEqual(0.8);
    expect(report.categories.misspelled.recall).toBeGreaterThanOrEqual(0.8);
    expect(report.overall.precision).toBeGreaterThanOrEqual(0.85);
    expect(report.falseFound).toBe(0);
  });

  it('finds a category through the members the transcript names, precisely', () => {
    expect(report.categories.category.queries).toBeGreaterThanOrEqual(5);
    expect(report.categories.category.precision).toBeGreaterThanOrEqual(0.95);
    expect(report.categories.category.recall).toBeGreaterThanOrEqual(0.8);
  });

  it('keeps synonym matches precise', () => {
    expect(report.categories.synonym.precision).toBeGreaterThanOrEqual(0.85);
  });

  it('quotes only the transcript and times every quote inside its segment', () => {
    expect(report.invalidQuotes).toBe(0);
    expect(report.misplacedTimes).toBe(0);
  });
});

describe('AI Search latency', () => {
  it('answers within 50 ms at p95 on a two-hour transcript once warm', async () => {
    const { makeLongTranscript } = await import('./long-transcript.js');
    const { doc } = makeLongTranscript();
    const finder = createTopicFinder();
    const topics = ['glaciers', 'Roman aqueducts', 'doctor', 'Okonkwo', 'bicycle', 'volcano', 'coffee machine', 'guitar', '"group chat"', 'Lisbon'];
    for (const t of topics) finder.find(doc, t);
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const t of topics) {
        const started = performance.now();
        finder.find(doc, t);
        times.push(performance.now() - started);
      }
    }
    times.sort((a, b) => a - b);
    expect(times[Math.ceil(times.length * 0.95) - 1]).toBeLessThanOrEqual(50);
  });
});
