import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { prices } from '../../core/pricing.js';
import type { RestEnv } from '../env.js';
import { episodeInfoShape } from '../../wire/catalog-shapes.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';
import { TRANSCRIPT_ID_PATTERN } from '../../core/transcript-id.js';

const infoRoute = createRoute({
  method: 'get',
  path: '/episodes/{transcript_id}',
  operationId: 'getEpisode',
  tags: ['Discovery'],
  summary: 'Episode info: transcript status, whether this key unlocked it, what an unlock costs (0 credits)',
  description: `\`unlock_cost\` is ${prices.unlock} for an episode with a transcript ready and not yet unlocked by this key, 0 once unlocked (and for the public sample episode), null while no transcript exists: queue it with POST /requests. The episode date is \`published_at\`.`,
  security: keyed,
 
  request: { params: z.object({ transcript_id: z.string().openapi({ pattern: TRANSCRIPT_ID_PATTERN, example: '97ab7f764b594d58' }) }) },
  responses: {
    200: ok(episodeInfoShape.zod, 'The episode'),
    ...errors({ ...keyedErrors, 400: '`transcript_id` is not 16 lowercase hex characters.', 404: 'No such episode in the index.' }),
  },
});

export function registerEpisodeRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(infoRoute, async (c) => {
    const services = c.get('services');
    return c.json(episodeInfoShape.toWire(await services.discovery.episode(c.get('actor'), c.req.valid('param').transcript_id), services), 200);
  });
}
