import { timingSafeEqual } from 'node:crypto';
import { type Env, Hono } from 'hono';
import { databaseProblem } from '../infra/db/unavailable.js';
import { httpTiming } from '../infra/metrics/http-timing.js';
import type { Metrics } from '../infra/metrics/metrics.js';

/** What the operations routes need from the running process. */
export interface OperationsHooks {
  metrics: Metrics;
  /** Aborted when the process starts shutting down: readiness answers 503 from then on. */
  draining: AbortSignal;
  /** Database reachable and migrations applied; the problems otherwise. */
  checkReady(): Promise<string[]>;
  /** When set, `/metrics` needs `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken?: string;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /livez`, `GET /readyz` and `GET /metrics` at the site root: keyless,
 * outside the metered API (a probe must never spend a daily allowance or be
 * refused by one).
 */
export function registerOperationsRoutes<E extends Env>(app: Hono<E>, ops: OperationsHooks): void {
  const noStore = { 'cache-control': 'no-store' };
  app.get('/livez', (c) => c.json({ status: 'ok' }, 200, noStore));
  app.get('/readyz', async (c) => {
    if (ops.draining.aborted) return c.json({ status: 'draining', problems: ['shutting down'] }, 503, noStore);
    const problems = await ops.checkReady().catch((err: unknown) => [databaseProblem(err)]);
    if (ops.draining.aborted) return c.json({ status: 'draining', problems: ['shutting down'] }, 503, noStore);
    return problems.length === 0 ? c.json({ status: 'ready' }, 200, noStore) : c.json({ status: 'unavailable', problems }, 503, noStore);
  });
  app.get('/metrics', async (c) => {
    if (ops.metricsToken) {
      const header = c.req.header('authorization') ?? '';
      const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
      if (!sameToken(token, ops.metricsToken)) {
        return c.json({ error: { code: 'unauthorized', message: 'authorization: send the METRICS_TOKEN as "Bearer <token>"' } }, 401, { 'www-authenticate': 'Bearer' });
      }
    }
    const { registry } = ops.metrics;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, ...noStore });
  });
}

/**
 * What a `ROLE=worker` process serves on PORT: only the probes and its own
 * metrics (a worker's counters exist nowhere else), no API, site or GraphQL.
 */
export function createOperationsApp(ops: OperationsHooks): Hono {
  const app = new Hono();
  app.use('*', httpTiming(ops.metrics));
  registerOperationsRoutes(app, ops);
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `A worker serves only /livez, /readyz and /metrics, not ${c.req.path}` } }, 404));
  app.onError((_err, c) => c.json({ error: { code: 'internal', message: 'internal error' } }, 500));
  return app;
}
