import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { MAX_TOPIC_CHARS } from '../../core/aisearch/ai-search-service.js';
import { prices } from '../../core/pricing.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';
import { TRANSCRIPT_ID_PATTERN } from '../../core/transcript-id.js';
import { aiSearchResultShape } from '../../wire/ai-search-shapes.js';

const queryRoute = createRoute({
  method: 'post',
  path: '/ai-search/query',
  operationId: 'searchTranscript',
  tags: ['AI Search'],
  summary: `Find a topic, name or keyword in one transcribed episode (${prices.aiSearchQuery} credit, charged only for a result)`,
  description: [
    `Answers verbatim quotes with times and listen links. Costs ${prices.aiSearchQuery} credit on every plan, charged when the result is ready: a search that fails (500), or that a restart cuts off, charges nothing, so there is never a refund to wait for. The balance is checked first (402).`,
    'No unlock is needed: the quotes are what the credit buys. Reading the whole transcript still needs `POST /unlock`.',
    'Matching covers the words themselves, their other forms, WordNet synonyms and related words, and names as a recogniser may have misspelt them; a "quoted phrase" must appear as written. When the operator has configured a model, it re-ranks and summarises the candidates; if it fails or is slow, the offline answer is returned at the same price.',
    'An episode without a transcript answers 409 quoting the real total: its transcription by the price table plus this query. Once transcribed, an episode can be queried repeatedly.',
  ].join('\n\n'),
  security: keyed,
 
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            transcript_id: z.string().openapi({ pattern: TRANSCRIPT_ID_PATTERN, example: '97ab7f764b594d58' }),
            topic: z.string().openapi({ minLength: 1, maxLength: MAX_TOPIC_CHARS, description: `1 to ${MAX_TOPIC_CHARS} characters after trimming.`, example: 'electric cars' }),
          }).strict(),
        },
      },
    },
  },
  responses: {
    200: ok(aiSearchResultShape.zod, 'The result; `found: false` with no mentions when the topic does not occur (still charged).'),
    ...errors({
      ...keyedErrors,
      400: 'Malformed input naming the field: `transcript_id` not 16 lowercase hex, `topic` empty or over 200 characters.',
      402: 'Insufficient credits (before the search, or spent by another call during it): nothing charged.',
      404: 'No such episode.',
      409: '`not_transcribed`: the episode has no transcript yet; the message quotes transcription by the price table plus the query.',
      500: 'The search failed on our side; nothing was charged.',
    }),
  },
});

export function registerAiSearchRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(queryRoute, async (c) => {
    const body = c.req.valid('json');
    const services = c.get('services');
    const result = await services.aiSearch.query(c.get('actor'), { transcriptId: body.transcript_id, topic: body.topic });
    return c.json(aiSearchResultShape.toWire(result, services), 200);
  });
}
