import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { EPISODE_LIST } from '../../core/catalog/discovery/discovery-input.js';
import { LOOKUP_PRECEDENCE } from '../../core/catalog/discovery/lookup-show.js';
import type { RestEnv } from '../env.js';
import { episodeListShape, showShape, showSummaryShape } from '../../wire/catalog-shapes.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const feedIdParam = z.object({
  feed_id: z.string().openapi({ param: { name: 'feed_id', in: 'path' }, type: 'integer', minimum: 1, description: 'The show\'s feed id.', example: 743229 }),
});

const lookupRoute = createRoute({
  method: 'get',
  path: '/shows/lookup',
  operationId: 'lookupShow',
  tags: ['Discovery'],
  summary: 'The show a directory id, feed URL or link names (0 credits)',
  description: LOOKUP_PRECEDENCE,
  security: keyed,
 
  request: {
    query: z.object({
      apple_id: z.string().optional().openapi({ type: 'integer', description: 'Apple Podcasts (iTunes) collection id. Tried first.', example: 1200361736 }),
      feed_url: z.string().optional().openapi({ description: 'The RSS feed URL (http or https, trailing slash or not). Tried second.' }),
      url: z.string().optional().openapi({ description: 'A podcast-directory link or an RSS feed URL, as for GET /search. Tried last.' }),
    }),
  },
  responses: {
    200: ok(showSummaryShape.zod, 'The show'),
    ...errors({
      ...keyedErrors,
      400: '`invalid_request`: none of `apple_id`, `feed_url`, `url` given, or one is malformed. `unsupported_link`: `url` is a streaming-service link, or a directory link naming the show only by that directory\'s own id.',
      404: 'No show in the index matches.',
    }),
  },
});

const showRoute = createRoute({
  method: 'get',
  path: '/shows/{feed_id}',
  operationId: 'getShow',
  tags: ['Discovery'],
  summary: 'Show details (0 credits)',
  security: keyed,
 
  request: { params: feedIdParam },
  responses: { 200: ok(showShape.zod, 'The show'), ...errors({ ...keyedErrors, 400: '`feed_id` is not a positive integer.', 404: 'Show not found.' }) },
});

const episodesRoute = createRoute({
  method: 'get',
  path: '/shows/{feed_id}/episodes',
  operationId: 'listEpisodes',
  tags: ['Discovery'],
  summary: "A show's episodes with transcript status, newest first (0 credits)",
  description: `Up to ${EPISODE_LIST.max} episodes. \`audio_url\` and \`duration_seconds\` are what POST /requests takes as \`url\` and \`secs\`. A show Podtext knows only from the directory has its feed read on this first request.`,
  security: keyed,
  // The handler answers with its own plain headers.
 
  request: {
    params: feedIdParam,
    query: z.object({
      max: z.string().optional().openapi({ type: 'integer', minimum: 1, maximum: EPISODE_LIST.max, default: EPISODE_LIST.default, description: `Episodes to return, 1 to ${EPISODE_LIST.max}. Default: ${EPISODE_LIST.default}.`, example: 100 }),
    }),
  },
  responses: {
    200: ok(episodeListShape.zod, 'The episode list'),
    ...errors({ ...keyedErrors, 400: `\`feed_id\` is not a positive integer, or \`max\` is not an integer from 1 to ${EPISODE_LIST.max}.`, 404: 'Show not found.' }),
  },
});

export function registerShowRoutes(api: OpenAPIHono<RestEnv>): void {
  // Before /shows/{feed_id}, which would otherwise take "lookup" for an id.
  api.openapi(lookupRoute, async (c) => {
    const services = c.get('services');
    const q = c.req.valid('query');
    const show = await services.discovery.lookup(c.get('actor'), { appleId: q.apple_id, feedUrl: q.feed_url, url: q.url });
    return c.json(showSummaryShape.toWire(show, services), 200);
  });
  api.openapi(showRoute, async (c) => {
    const services = c.get('services');
    return c.json(showShape.toWire(await services.discovery.show(c.req.valid('param').feed_id), services), 200);
  });
  api.openapi(episodesRoute, async (c) => {
    const services = c.get('services');
    const list = await services.discovery.episodes(c.get('actor'), c.req.valid('param').feed_id, { max: c.req.valid('query').max });
    return c.json(episodeListShape.toWire(list, services), 200);
  });
}
