import { MAX_TOPIC_CHARS } from '../../core/aisearch/ai-search-service.js';
import { prices } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { aiSearchResultShape } from '../../wire/ai-search-shapes.js';
import { requireActor } from '../require-actor.js';
import { shapeType } from '../shape-type.js';

const AiSearchResultRef = shapeType(aiSearchResultShape);

builder.mutationFields((t) => ({
  aiSearch: t.field({ ...operation('searchTranscript'),
    type: AiSearchResultRef,
    description: [
      `Finds a topic, name or keyword in one transcribed episode: ${prices.aiSearchQuery} credit, charged only when the result is ready: a search that fails (error code internal) charges nothing.`,
      'No unlock is needed. Errors: invalid_request (transcriptId, or topic empty or over 200 characters), insufficient_credits, not_found (no such episode), not_transcribed (the message quotes transcription plus the query).',
    ].join(' '),
    args: {
      transcriptId: t.arg.string({ required: true, description: '16 lowercase hex characters.' }),
      topic: t.arg.string({ required: true, description: `1 to ${MAX_TOPIC_CHARS} characters after trimming.` }),
    },
    resolve: (_r, { transcriptId, topic }, ctx) => ctx.services.aiSearch.query(requireActor(ctx), { transcriptId, topic }),
  }),
}));
