import type { OutboundClient } from '../../infra/outbound/outbound-client.js';
import { type AiSearchDeps, createAiSearch } from './ai-search-service.js';
import { createLlmReranker } from './llm-reranker.js';
import { createAiOutboundClient, createOutboundJsonPost } from './outbound-json-post.js';
import { createTopicFinder } from './topic-finder.js';

/** The operator's OpenAI-compatible chat endpoint (config `AI_URL`, `AI_MODEL`, `AI_API_KEY`). */
export interface AiEndpointConfig {
  url: string;
  model: string;
  apiKey?: string;
}

export interface AiSearchSetup extends Omit<AiSearchDeps, 'finder' | 'reranker'> {
  /** When set, the offline candidates are re-ranked and summarised by this model. Default: offline only. */
  ai?: AiEndpointConfig;
  /** The client that talks to `ai.url`. Default: {@link createAiOutboundClient} for that URL alone. */
  aiOutbound?: OutboundClient;
  /** The model call's whole-request limit in milliseconds. Default: 8000. */
  aiTimeoutMs?: number;
}

/**
 * AI Search as the service runs it: the offline topic finder (WordNet read
 * lazily on first query), plus model re-ranking through the guarded outbound
 * client when an endpoint is configured.
 */
export function setUpAiSearch(setup: AiSearchSetup) {
  const { ai, aiOutbound, aiTimeoutMs, ...deps } = setup;
  const reranker = ai
    ? createLlmReranker({
        url: ai.url,
        model: ai.model,
        apiKey: ai.apiKey,
        timeoutMs: aiTimeoutMs,
        post: createOutboundJsonPost(aiOutbound ?? createAiOutboundClient(ai.url)),
      })
    : null;
  return createAiSearch({ ...deps, finder: createTopicFinder(), reranker });
}
