import type { Hit } from './concept-hits.js';
import type { PreparedTranscript } from './prepared-transcript.js';
import type { ParsedTopic } from './topic-query.js';

/** A sentence unit that, with its neighbours, is about the topic. */
export interface RankedUnit {
  unit: number;
  score: number;
  /** Weighted share of the topic's concepts found in the window (0–1). */
  coverage: number;
  /** What matched in the unit itself, strongest first. */
  labels: string[];
}

/** Share of the topic a window must cover when the topic has one main concept. */
export const SINGLE_CONCEPT_THRESHOLD = 0.45;
/** Share a window must cover when the topic has several concepts. */
export const MULTI_CONCEPT_THRESHOLD = 0.6;
/** How much a concept found only in a neighbouring sentence counts. */
const NEIGHBOUR_FACTOR = 0.7;

interface UnitHits {
  best: Float64Array;
  hits: Hit[][];
}

/**
 * Scores every unit that holds a hit, over the window of the unit and its two
 * neighbours, and keeps those above the relevance threshold, best first.
 *
 * A concept counts with the weight of its best hit in the unit (1 for the word
 * itself, less for relatives and respellings), or 0.7 of that in a neighbour.
 * Coverage is the concept-weighted mean; a window passes at 0.45 when the
 * topic has one main concept and at 0.6 otherwise, so one word of a
 * two-word topic is not enough. Quoted phrases must be in the unit itself.
 */
export function rankUnits(p: PreparedTranscript, topic: ParsedTopic, hits: Hit[][]): RankedUnit[] {
  const n = topic.concepts.length;
  if (n === 0) return [];
  const byUnit = new Map<number, UnitHits>();
  hits.forEach((list, k) => {
    for (const h of list) {
      const u = p.tokenUnit[h.token];
      let entry = byUnit.get(u);
      if (!entry) {
        entry = { best: new Float64Array(n), hits: Array.from({ length: n }, () => []) };
        byUnit.set(u, entry);
      }
      entry.hits[k].push(h);
      if (h.weight > entry.best[k]) entry.best[k] = h.weight;
    }
  });

  const totalWeight = topic.concepts.reduce((s, c) => s + c.weight, 0);
  const main = topic.concepts.filter((c) => c.weight >= 1).length;
  const threshold = main <= 1 ? SINGLE_CONCEPT_THRESHOLD : MULTI_CONCEPT_THRESHOLD;
  const out: RankedUnit[] = [];
  for (const [u, entry] of byUnit) {
    const before = byUnit.get(u - 1);
    const after = byUnit.get(u + 1);
    let covered = 0;
    let centre = 0;
    let missingRequired = false;
    topic.concepts.forEach((c, k) => {
      const here = entry.best[k];
      const near = NEIGHBOUR_FACTOR * Math.max(before?.best[k] ?? 0, after?.best[k] ?? 0);
      if (c.required && here === 0) missingRequired = true;
      covered += c.weight * Math.max(here, near);
      centre += c.weight * here;
    });
    if (missingRequired) continue;
    const coverage = covered / totalWeight;
    if (coverage < threshold - 1e-9) continue;
    let adjacency = 0;
    for (const [a, b] of topic.adjacent) {
      const follows = entry.hits[a].some((ha) =>
        entry.hits[b].some((hb) => hb.token >= ha.token + ha.length && hb.token <= ha.token + ha.length + 1),
      );
      if (follows) adjacency = 1;
    }
    const count = entry.hits.reduce((s, l) => s + l.length, 0);
    const score = 0.6 * coverage + (0.4 * centre) / totalWeight + 0.1 * adjacency + 0.02 * Math.min(3, count - 1);
    const labels = entry.hits
      .flat()
      .sort((x, y) => y.weight - x.weight)
      .map((h) => h.label)
      .filter((l, i, all) => all.indexOf(l) === i);
    out.push({ unit: u, score, coverage, labels });
  }
  return out.sort((x, y) => y.score - x.score || x.unit - y.unit);
}
