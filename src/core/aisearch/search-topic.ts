import type { LlmReranker } from './llm-reranker.js';
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
 * answered offline without calling the model.
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
  return reranked ?? finder.find(doc, topic);
}
