import type { AiSearchMention, AiSearchResult } from '../core/aisearch/ai-search-service.js';
import { prices } from '../core/pricing.js';
import { field, shape } from './shape.js';

const mentionShape = shape<AiSearchMention>(
  { rest: 'AiSearchMention', description: 'One place the topic comes up.' },
  {
    quote: field.string('Verbatim text of the transcript, checked against it before answering.', (m) => m.quote),
    context: field.string('The sentences around the quote.', (m) => m.context),
    timestamp_seconds: field.float('Start of the quote in seconds; null when the transcript has no time for it.', (m) => m.timestampSeconds, { nullable: true }),
    listen_url: field.string('`{site_url}/t/{transcript_id}#t=<whole seconds>`; null exactly when the timestamp is.', (m) => m.listenUrl, { nullable: true }),
  },
);

/** What an AI Search query answers: REST `POST /ai-search/query`, GraphQL `aiSearch`. */
export const aiSearchResultShape = shape<AiSearchResult>(
  { rest: 'AiSearchResult' },
  {
    transcript_id: field.string(undefined, (r) => r.transcriptId),
    topic: field.string('The topic as searched (trimmed).', (r) => r.topic),
    found: field.boolean(undefined, (r) => r.found),
    summary: field.string(undefined, (r) => r.summary),
    mentions: field.list(mentionShape, 'At most 5, in time order.', (r) => r.mentions),
    credits: field.int(`Credits this query charged: ${prices.aiSearchQuery}. A failed query is refunded and answers an error instead.`, (r) => r.credits),
    credits_remaining: field.int('The balance after the charge.', (r) => r.creditsRemaining),
  },
);
