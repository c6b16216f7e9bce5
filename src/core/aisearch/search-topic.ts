import type { LlmReranker } from './llm-reranker.js';
import { STOPWORDS } from './stopwords.js';
import { tokenize } from './text-tokens.js';
import type { FindResult, SearchableTranscript } from './searchable-transcript.js';
import type { TopicFinder } from './topic-finder.js';

export interface SearchTopicOptions {
  finder: TopicFinder;
  /** Optional model re-ranking; without it, or when it fails, the offline result is returned. */
  reranker?: LlmReranker | null;
  /** Candidates offered to the re-ranker. Default: 12. */
  candidateLimit?: number;
}

/**
 * Finds a topic in one transcript: the offline finder's candidates,
 * re-ranked and summarised by a model when one is configured, falling back to
 * the offline result on any model failure. A topic with no candidate is
 * answered offline without calling the model. Mentions that say every word
 * of the topic outright are kept whatever the model chose (with the offline
 * summary when the model found nothing).
 *
 * @example
 * const result = await searchTopic(doc, 'electric cars', { finder: createTopicFinder(), reranker });
 */
export async function searchTopic(doc: SearchableTranscript, topic: string, options: SearchTopicOptions): Promise<FindResult> {
  const { finder, reranker } = options;
  if (!reranker) return finder.find(doc, topic);
  const candidates = finder.candidates(doc, topic, options.candidateLimit ?? 12);
  if (candidates.length === 0) return finder.find(doc, topic);
  const reranked = await reranker.rerank({
    topic,
    transcriptText: finder.prepare(doc).text,
    candidates,
    timeAt: (offset) => finder.timeAt(doc, offset),
  });
  const offline = finder.find(doc, topic);
  if (!reranked) return offline;
  // The model chooses and summarises; it cannot leave out the transcript saying the topic in so many words.
  const words = contentWords(topic);
  const missing = offline.mentions.filter((m) => saysAll(m.quote, words) && !reranked.mentions.some((r) => r.quote.includes(m.quote) || m.quote.includes(r.quote)));
  if (missing.length === 0) return reranked;
  const mentions = [...reranked.mentions, ...missing].sort((a, b) => (a.timestampSeconds ?? Infinity) - (b.timestampSeconds ?? Infinity));
  return { found: true, summary: reranked.found ? reranked.summary : offline.summary, mentions };
}

function contentWords(text: string): string[] {
  return [...new Set(tokenize(text).map((t) => t.norm).filter((w) => w.length > 1 && !STOPWORDS.has(w)))];
}

/** Whether `quote` holds every one of `words` as a word of its own. */
function saysAll(quote: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const said = new Set(tokenize(quote).map((t) => t.norm));
  return words.every((w) => said.has(w));
}
