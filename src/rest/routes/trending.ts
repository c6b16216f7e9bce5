import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { TRENDING_DEFAULT_LANG, TRENDING_LIST } from '../../core/catalog/discovery/discovery-input.js';
import { TRENDING_DOCS } from '../../core/catalog/discovery/trending.js';
import type { RestEnv } from '../env.js';
import { showSummaryShape } from '../../wire/catalog-shapes.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const trendingRoute = createRoute({
  method: 'get',
  path: '/trending',
  operationId: 'getTrending',
  tags: ['Discovery'],
  summary: 'Shows busy this week on Podtext (0 credits)',
  description: TRENDING_DOCS,
  security: keyed,
 
  request: {
    query: z.object({
      category: z.string().optional().openapi({ maxLength: 100, description: 'A directory category name, e.g. `News` (case-insensitive); at most 100 characters.' }),
      max: z.string().optional().openapi({ type: 'integer', minimum: 1, maximum: TRENDING_LIST.max, default: TRENDING_LIST.default, description: `1 to ${TRENDING_LIST.max}. Default: ${TRENDING_LIST.default}.`, example: TRENDING_LIST.default }),
      lang: z.string().optional().openapi({ default: TRENDING_DEFAULT_LANG, description: `Language tag prefix, or \`all\`. Default: \`${TRENDING_DEFAULT_LANG}\`.`, example: TRENDING_DEFAULT_LANG }),
    }),
  },
  responses: {
    200: ok(z.object({ categories: z.array(z.string()), shows: z.array(showSummaryShape.zod) }), 'Trending shows, best first'),
    ...errors({ ...keyedErrors, 400: `\`max\` is not an integer from 1 to ${TRENDING_LIST.max}, or \`lang\` is not a language tag.` }),
  },
});

export function registerTrendingRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(trendingRoute, async (c) => {
    const services = c.get('services');
    const r = await services.discovery.trending(c.req.valid('query'));
    return c.json({ categories: r.categories, shows: r.shows.map((s) => showSummaryShape.toWire(s, services)) }, 200);
  });
}
