import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { JOBS_PER_PAGE } from '../../core/jobs/job-service.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';
import { jobShape } from '../../wire/job-shapes.js';

const listRoute = createRoute({
  method: 'get',
  path: '/jobs',
  operationId: 'listJobs',
  tags: ['Jobs'],
  summary: "This key's transcription jobs, newest first",
  security: keyed,
 
  request: {
    query: z.object({
      // Read by the core's one rule for counts in a query (digits only), as `max` on lists.
      page: z.string().optional().openapi({ type: 'integer', minimum: 1, default: 1, description: 'From 1. Default: 1.' }),
      per: z.string().optional().openapi({ type: 'integer', minimum: 1, maximum: JOBS_PER_PAGE.max, default: JOBS_PER_PAGE.default, description: `Default ${JOBS_PER_PAGE.default}, at most ${JOBS_PER_PAGE.max}.` }),
    }),
  },
  responses: {
    200: ok(z.object({ jobs: z.array(jobShape.zod), page: z.number().int(), per: z.number().int(), total: z.number().int(), has_more: z.boolean() }), 'A page of jobs'),
    ...errors(keyedErrors),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/jobs/{id}',
  operationId: 'getJob',
  tags: ['Jobs'],
  summary: 'A job with live status, ETA and per-episode links',
  description: '`poll_after_seconds` is a quarter of the remaining estimate, between 30 and 300 (null once done). Per-episode `url` and `transcript_url` are filled once ready. Polling costs 1 request and 0 credits.',
  security: keyed,
 
  request: { params: z.object({ id: z.string().openapi({ format: 'uuid' }) }) },
  responses: { 200: ok(jobShape.zod, 'The job'), ...errors({ ...keyedErrors, 404: 'No such job for this key (or a malformed id).' }) },
});

export function registerJobRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(listRoute, async (c) => {
    const { page, per } = c.req.valid('query');
    const services = c.get('services');
    const r = await services.jobs.list(c.get('actor'), { page, per });
    return c.json({ jobs: r.jobs.map((j) => jobShape.toWire(j, services)), page: r.page, per: r.per, total: r.total, has_more: r.hasMore }, 200);
  });
  api.openapi(getRoute, async (c) => {
    const services = c.get('services');
    return c.json(jobShape.toWire(await services.jobs.get(c.get('actor'), c.req.valid('param').id), services), 200);
  });
}
