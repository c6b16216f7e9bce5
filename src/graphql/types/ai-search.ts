import { MAX_TOPIC_CHARS, type AiSearchMention, type AiSearchResult } from '../../core/aisearch/ai-search-service.js';
import { prices } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';

const AiSearchMentionRef = builder.objectRef<AiSearchMention>('AiSearchMention').implement({
  description: 'One place the topic comes up.',
  fields: (t) => ({
    quote: t.exposeString('quote', { description: 'Verbatim text of the transcript, checked against it before answering.' }),
    context: t.exposeString('context', { description: 'The sentences around the quote.' }),
    timestampSeconds: t.exposeFloat('timestampSeconds', { nullable: true, description: 'Start of the quote in seconds; null when the transcript has no time for it.' }),
    listenUrl: t.exposeString('listenUrl', { nullable: true, description: '{site_url}/t/{transcript_id}#t=<whole seconds>; null exactly when timestampSeconds is.' }),
  }),
});

const AiSearchResultRef = builder.objectRef<AiSearchResult>('AiSearchResult').implement({
  fields: (t) => ({
    transcriptId: t.exposeString('transcriptId'),
    topic: t.exposeString('topic', { description: 'The topic as searched (trimmed).' }),
    found: t.exposeBoolean('found'),
    summary: t.exposeString('summary'),
    mentions: t.field({ type: [AiSearchMentionRef], description: 'At most 5, in time order.', resolve: (r) => r.mentions }),
    credits: t.exposeInt('credits', { description: `Credits this query charged: ${prices.aiSearchQuery}. A failed query is refunded and answers an error instead.` }),
    creditsRemaining: t.exposeInt('creditsRemaining', { description: 'The balance after the charge.' }),
  }),
});

builder.mutationFields((t) => ({
  aiSearch: t.field({ ...operation('searchTranscript'),
    type: AiSearchResultRef,
    description: [
      `Finds a topic, name or keyword in one transcribed episode: ${prices.aiSearchQuery} credit, charged before the search and refunded automatically if it fails (error code internal).`,
      'No unlock is needed. Errors: invalid_request (transcriptId, or topic empty or over 200 characters), insufficient_credits, not_found (no such episode), not_transcribed (the message quotes transcription plus the query).',
    ].join(' '),
    args: {
      transcriptId: t.arg.string({ required: true, description: '16 lowercase hex characters.' }),
      topic: t.arg.string({ required: true, description: `1 to ${MAX_TOPIC_CHARS} characters after trimming.` }),
    },
    resolve: (_r, { transcriptId, topic }, ctx) => ctx.services.aiSearch.query(requireActor(ctx), { transcriptId, topic }),
  }),
}));
