import { z } from '@hono/zod-openapi';
import { MAX_EPISODES_PER_REQUEST, MAX_SECS, MAX_TEXT, REQUEST_FIELD_DOCS } from '../../core/jobs/request-input.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../core/webhooks/webhook-url.js';
import { prices } from '../../core/pricing.js';

const RequestItemSchema = z.object({
  guid: z.string().openapi({ minLength: 1, maxLength: MAX_TEXT, description: 'The episode guid; transcript_id is the first 16 hex of its SHA-1.' }),
  url: z.string().openapi({ minLength: 1, maxLength: MAX_TEXT, description: 'The audio_url from the episode list. For an episode the index knows, its own audio URL is used.' }),
  title: z.string().nullish().openapi({ maxLength: MAX_TEXT }),
  date: z.string().nullish().openapi({ maxLength: MAX_TEXT, description: 'Publication date, ISO 8601 or RFC 2822, in the years 1 to 9999.' }),
  // The bounds are the core's to check, so that REST and GraphQL say the same; documented here.
  secs: z.number().int().nullish().openapi({ minimum: 0, maximum: MAX_SECS, description: REQUEST_FIELD_DOCS.secs }),
  // Not strict: an item may be an episode of the episode list as it came, whose other fields are not read.
});

export const RequestBodySchema = z.object({
  episodes: z.array(RequestItemSchema).openapi({ minItems: 1, maxItems: MAX_EPISODES_PER_REQUEST }),
  email: z.string().nullish().openapi({ format: 'email', description: REQUEST_FIELD_DOCS.email }),
  webhook_url: z.string().nullish().openapi({ format: 'uri', maxLength: MAX_WEBHOOK_URL_LENGTH, description: 'https only; receives the signed job.done event.' }),
  // Not nullable: a null must not quietly mean "charge me" on a field that decides whether credits move.
  dry_run: z.boolean().optional().openapi({ description: 'Quote only: nothing is charged, unlocked, stored or queued. `true` or `false` (default), never null.' }),
  fast: z.boolean().optional().openapi({ description: `Fast lane (\`true\` or \`false\`, default; never null): ${prices.fastTranscribePerHour} credits per hour, promised within promise_seconds. Only where a fast lane is configured (\`fast_lane_available\` on a dry run); otherwise 400 \`fast_lane_unavailable\`, nothing charged.` }),
}).strict();
