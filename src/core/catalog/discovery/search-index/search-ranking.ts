import { wordMatch } from './word-similarity.js';

/**
 * How name searches rank shows. For a query q and a title t, both search keys
 * (lower case, no accents or punctuation; see `searchKey`):
 *
 * ```
 * hits  = trigrams q and t share (per space-padded word, plus those across word boundaries)
 * rel   = hits / |q|                    how much of the query the title holds (like pg_trgm word_similarity)
 * cov   = hits / |q ∪ t|                how much of the title the query is (pg_trgm similarity)
 * words = wordMatch(q, t)               each query word's best edit similarity to a title word, longer words weighing more
 * exact = 1 when q is the whole title (spaced or glued), else 0
 * pop   = min(1, ln(1 + popularity) / ln(31))   Podcast Index popularity (0..~30), log-scaled
 *
 * score = 0.50·words + 0.30·rel + 0.20·cov + 0.15·exact + 0.25·pop
 * ```
 *
 * Candidates are the shows holding at least 40% of the query's trigrams, so
 * one typo in a six-letter word still passes; the best 100 of them by
 * `0.7·rel + 0.3·cov + 0.25·pop` are scored in full. Popularity breaks the
 * near-ties typos create ("joe rogen" is one edit from Rogan, two from
 * Rogers); `exact` keeps an obscure show whose title is exactly the query
 * above a famous near miss.
 */
export const ranking = {
  words: 0.5,
  rel: 0.3,
  cov: 0.2,
  exact: 0.15,
  popularity: 0.25,
  /** Share of the query's trigrams a candidate must hold. */
  minShare: 0.4,
  /** Candidates scored in full. */
  shortlist: 100,
} as const;

/** Popularity on Podcast Index's scale (0..~30, Zipf-like) mapped to 0..1. */
export function popularityWeight(popularity: number): number {
  return popularity > 0 ? Math.min(1, Math.log1p(popularity) / Math.log(31)) : 0;
}

/** The quick score that picks the shortlist: trigram overlap and popularity only. */
export function shortlistScore(hits: number, queryTrigrams: number, titleTrigrams: number, pop: number): number {
  return 0.7 * (hits / queryTrigrams) + 0.3 * (hits / (queryTrigrams + titleTrigrams - hits)) + ranking.popularity * pop;
}

/** The full score of one shortlisted show; see {@link ranking}. */
export function fullScore(query: { name: string; compact: string; trigrams: number }, title: string, hits: number, titleTrigrams: number, pop: number): number {
  const rel = hits / query.trigrams;
  const cov = hits / (query.trigrams + titleTrigrams - hits);
  const exact = title === query.name || title.replaceAll(' ', '') === query.compact ? 1 : 0;
  return (
    ranking.words * wordMatch(query.name, title) +
    ranking.rel * rel +
    ranking.cov * cov +
    ranking.exact * exact +
    ranking.popularity * pop
  );
}
