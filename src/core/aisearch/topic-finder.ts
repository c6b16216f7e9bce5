import { discountStrayRelatives, findHits } from './concept-hits.js';
import { summarizeMentions } from './mention-summary.js';
import { prepareTranscript, timeOfToken, type PreparedTranscript } from './prepared-transcript.js';
import { createRelatedTerms, type RelatedTerms } from './related-terms.js';
import type { FindResult, SearchableTranscript, TopicMention } from './searchable-transcript.js';
import { parseTopic } from './topic-query.js';
import { weighSenseEvidence } from './sense-evidence.js';
import { rankUnits } from './window-ranking.js';
import { createStemCache } from './word-forms.js';

/** A mention before selection: what the re-ranker chooses from. */
export interface TopicCandidate extends TopicMention {
  /** 1-based, in ranking order. */
  id: number;
  score: number;
  /** Character offset of the quote in the transcript text. */
  offset: number;
  /** Words that matched in the quote, strongest first. */
  matched: string[];
}

export interface TopicFinderOptions {
  /** Most mentions returned by `find`. Default: 5. */
  maxMentions?: number;
  /** Synonym source. Default: WordNet through `createRelatedTerms()`, read lazily on first use. */
  related?: RelatedTerms;
}

export interface TopicFinder {
  /** Builds (or returns the cached) indexes of a transcript; `find` calls it too. */
  prepare(doc: SearchableTranscript): PreparedTranscript;
  /** Verbatim mentions of a topic, best chosen, in time order, with a summary. */
  find(doc: SearchableTranscript, topic: string): FindResult;
  /** Ranked, merged candidates above the relevance threshold, best first. Default limit: 12. */
  candidates(doc: SearchableTranscript, topic: string, limit?: number): TopicCandidate[];
  /** Start time of the word at or after a character offset of the transcript text. */
  timeAt(doc: SearchableTranscript, offset: number): number | null;
}

/** Default number of mentions `find` returns. */
export const DEFAULT_MAX_MENTIONS = 5;
/** Units this close are one mention: each is in the other's context. */
const MERGE_DISTANCE = 1;
/** Units this close are the same passage; another passage is preferred unless it scores much lower. */
const SPREAD_DISTANCE = 4;
const SPREAD_FACTOR = 0.6;
/** Ranked units considered for selection. */
const POOL_SIZE = 60;

function tokenSet(p: PreparedTranscript, unit: number): Set<string> {
  const u = p.units[unit];
  return new Set(p.norm.slice(u.firstToken, u.endToken));
}

function nearDuplicate(a: Set<string>, b: Set<string>): boolean {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared || 1) >= 0.8;
}

/**
 * Creates the offline topic finder: stemmed and WordNet-expanded matching,
 * name respellings, sentence-window ranking and verbatim quotes with times.
 * Prepared transcripts are cached per document object (WeakMap), WordNet
 * lookups per finder.
 *
 * @example
 * const finder = createTopicFinder();
 * const { found, mentions } = finder.find(doc, 'cars');
 * // mentions[0] = { quote: 'we sold the automobile last year.', context: '…', timestampSeconds: 754.2 }
 */
export function createTopicFinder(options: TopicFinderOptions = {}): TopicFinder {
  const maxMentions = Math.max(1, Math.floor(options.maxMentions ?? DEFAULT_MAX_MENTIONS));
  let related = options.related;
  const stem = createStemCache();
  const prepared = new WeakMap<SearchableTranscript, PreparedTranscript>();

  function prepare(doc: SearchableTranscript): PreparedTranscript {
    let p = prepared.get(doc);
    if (!p) {
      p = prepareTranscript(doc, stem);
      prepared.set(doc, p);
    }
    return p;
  }

  function candidates(doc: SearchableTranscript, topic: string, limit = 12): TopicCandidate[] {
    const p = prepare(doc);
    related ??= createRelatedTerms();
    const parsed = parseTopic(topic, related, stem);
    if (parsed.concepts.length === 0) return [];
    const terms = related;
    const hits = parsed.concepts.map((c) =>
      discountStrayRelatives(p, weighSenseEvidence(p, findHits(p, c, (w) => terms.isCommonWord(w)), (w) => terms.isCompound(w), (w) => terms.isCommonWord(w))),
    );
    const pool = rankUnits(p, parsed, hits).slice(0, POOL_SIZE);
    const chosen: { unit: number; words: Set<string>; score: number; labels: string[] }[] = [];
    while (chosen.length < limit && pool.length > 0) {
      // Prefer places away from those already chosen, so a few mentions cover the whole episode.
      let bestIndex = 0;
      let bestScore = -Infinity;
      pool.forEach((r, i) => {
        const crowded = chosen.some((c) => Math.abs(c.unit - r.unit) <= SPREAD_DISTANCE);
        const adjusted = r.score * (crowded ? SPREAD_FACTOR : 1);
        if (adjusted > bestScore) {
          bestScore = adjusted;
          bestIndex = i;
        }
      });
      const [r] = pool.splice(bestIndex, 1);
      if (chosen.some((c) => Math.abs(c.unit - r.unit) <= MERGE_DISTANCE)) continue;
      const words = tokenSet(p, r.unit);
      if (chosen.some((c) => nearDuplicate(c.words, words))) continue;
      chosen.push({ unit: r.unit, words, score: r.score, labels: r.labels });
    }
    const out: TopicCandidate[] = [];
    for (const c of chosen) {
      const u = p.units[c.unit];
      const quote = p.text.slice(u.start, u.end).trim();
      // The quote is cut from the text itself; checking again guards every later change of this code.
      if (!quote || !p.text.includes(quote)) continue;
      const from = p.units[Math.max(0, c.unit - 1)].start;
      const to = p.units[Math.min(p.units.length - 1, c.unit + 1)].end;
      out.push({
        id: out.length + 1,
        quote,
        context: p.text.slice(from, to).trim(),
        timestampSeconds: timeOfToken(doc, p, u.firstToken),
        score: c.score,
        offset: u.start,
        matched: c.labels,
      });
    }
    return out;
  }

  function find(doc: SearchableTranscript, topic: string): FindResult {
    const ranked = candidates(doc, topic, maxMentions);
    const mentions = [...ranked].sort((a, b) => a.offset - b.offset);
    const strongest = mentions.indexOf(ranked[0]);
    const wordsOf = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean));
    const topicWords = wordsOf(topic);
    // "Matched as" names only words the strongest quote really holds, and only when the
    // topic's own words are not there: an expansion's label ("bicycler") may never occur.
    const quoteWords = wordsOf(ranked[0]?.quote ?? '');
    const literal = [...topicWords].some((w) => quoteWords.has(w));
    const matched = literal ? [] : (ranked[0]?.matched ?? []).filter((m) => !topicWords.has(m) && [...wordsOf(m)].every((w) => quoteWords.has(w)));
    return {
      found: mentions.length > 0,
      summary: summarizeMentions(topic, mentions, strongest, matched),
      mentions: mentions.map(({ quote, context, timestampSeconds }) => ({ quote, context, timestampSeconds })),
    };
  }

  function timeAt(doc: SearchableTranscript, offset: number): number | null {
    const p = prepare(doc);
    let lo = 0;
    let hi = p.tokenStart.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (p.tokenStart[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < p.tokenStart.length ? timeOfToken(doc, p, lo) : null;
  }

  return { prepare, find, candidates, timeAt };
}
