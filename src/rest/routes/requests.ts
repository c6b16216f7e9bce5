import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { MAX_EPISODES_PER_REQUEST } from '../../core/jobs/request-input.js';
import { REQUESTED_SHOW_TITLE } from '../../core/jobs/resolve-episodes.js';
import { prices } from '../../core/pricing.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';
import { requestResultShape } from '../../wire/job-shapes.js';
import { RequestBodySchema } from '../schemas/job.js';

const requestRoute = createRoute({
  method: 'post',
  path: '/requests',
  operationId: 'requestTranscription',
  tags: ['Jobs'],
  summary: `Transcribe up to ${MAX_EPISODES_PER_REQUEST} episodes; library episodes are unlocked at once`,
  description: [
    `Episodes already transcribed, by anyone, are unlocked at once for ${prices.unlock} credit each (0 if this key has them) and listed in \`already_transcribed\` (\`transcript_id, title, charged, url, transcript_url\`).`,
    `The rest cost ${prices.transcribePerHour} credit per hour (${prices.fastTranscribePerHour} with \`fast\`), rounded to the nearest hour, minimum 1, unlock included, and become one job. An episode already being transcribed for someone else is not transcribed twice: the job waits for the same work and is charged the same.`,
    'All or nothing: when the total exceeds the balance the answer is 402 with the required and available credits, and nothing is charged or queued. Each charge is its own ledger entry (`job:<job>:<transcript_id>`; the fast-lane premium apart, `…:premium`) and is refunded once if the episode fails.',
    'With `dry_run`: the same shape with `request_id` and `job` null, `credits_charged` 0, and the quote in `credits_required`, `sufficient`, `episodes` (each with its charge), `estimated_seconds`, `estimated_ready_at`, `queue_ahead_episodes` and, on the fast lane, `promise_seconds`; `fast_lane_available` says whether `fast` may be asked. Nothing is charged, unlocked, stored or queued.',
    `Episodes the index does not list are added under a shared "${REQUESTED_SHOW_TITLE}" show with the given url, title, date and secs. When a feed in the index later publishes the same guid, the episode moves to that show with the feed's details (its audio included) and keeps its unlocks; its transcript stays if the feed serves the same recording, and is withdrawn if it serves another.`,
  ].join('\n\n'),
  security: keyed,
 
  request: { body: { required: true, content: { 'application/json': { schema: RequestBodySchema } } } },
  responses: {
    200: ok(requestResultShape.zod, 'Unlocked and queued (or, with dry_run, quoted)'),
    ...errors({ ...keyedErrors, 400: `Malformed input: more than ${MAX_EPISODES_PER_REQUEST} episodes, a missing guid or url, a webhook_url that is not https, … (the message names the field). \`fast_lane_unavailable\`: \`fast\` asked where no fast lane is configured (\`fast_lane_available\` false on a dry run); nothing was charged or queued.`, 402: 'Insufficient credits: the message gives the required and available credits; nothing was charged.' }),
  },
});

export function registerRequestRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(requestRoute, async (c) => {
    const body = c.req.valid('json');
    const services = c.get('services');
    const result = await services.jobs.request(c.get('actor'), {
      episodes: body.episodes,
      email: body.email,
      webhookUrl: body.webhook_url,
      dryRun: body.dry_run,
      fast: body.fast,
    });
    return c.json(requestResultShape.toWire(result, services), 200);
  });
}
