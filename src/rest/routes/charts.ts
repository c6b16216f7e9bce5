import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { RestEnv } from '../env.js';
import { chartsShape } from '../../wire/catalog-shapes.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const chartsRoute = createRoute({
  method: 'get',
  path: '/charts',
  operationId: 'getCharts',
  tags: ['Discovery'],
  summary: 'The US top podcast chart of a major directory, overall or by genre (0 credits)',
  description: 'The overall chart has 100 entries, a genre chart 50, as last imported (daily). `genres` lists every slug `genre` accepts. `lookup_url` finds the entry in Podtext\'s index.',
  security: keyed,
 
  request: {
    query: z.object({ genre: z.string().optional().openapi({ description: 'A genre slug from `genres`; omit it for the overall chart.', example: 'true-crime' }) }),
  },
  responses: { 200: ok(chartsShape.zod, 'The chart'), ...errors({ ...keyedErrors, 400: 'Unknown `genre`; the message lists the valid slugs.' }) },
});

export function registerChartRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(chartsRoute, async (c) => {
    const services = c.get('services');
    return c.json(chartsShape.toWire(await services.discovery.charts(c.req.valid('query').genre), services), 200);
  });
}
