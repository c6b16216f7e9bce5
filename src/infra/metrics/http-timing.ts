import type { Context, MiddlewareHandler } from 'hono';
import type { Metrics } from './metrics.js';

/** Which metered API a path belongs to, or null for the site, docs and operations routes. */
function apiOf(path: string): 'rest' | 'graphql' | null {
  if (path.startsWith('/api/')) return 'rest';
  if (path === '/graphql') return 'graphql';
  return null;
}

function hasKey(c: Context): boolean {
  return Boolean(c.req.header('authorization') || c.req.header('x-api-key'));
}

/**
 * Times every request into `podtext_http_request_duration_seconds`, labelled
 * with the route template Hono matched (`/api/v1/shows/:id`, never the raw
 * path: ids would make a series per show) and counts metered and refused
 * API requests at the same boundary: an `/api/…` or `/graphql` request with
 * a key counts against its daily allowance (keyless ones count 0), and a 429
 * is a refusal. Register first, so that it sees the final status.
 */
export function httpTiming(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const status = c.res.status;
      // After `next()` the index points at the last handler that ran; a
      // wildcard there on a 404 means no route matched.
      const template = c.req.routePath;
      const route = status === 404 && template.endsWith('*') ? 'unmatched' : template;
      metrics.httpDuration.observe({ method: c.req.method, route, status: String(status) }, (performance.now() - started) / 1000);
      const api = apiOf(c.req.path);
      if (api && c.req.method !== 'OPTIONS') {
        const caller = hasKey(c) ? 'key' : 'keyless';
        if (caller === 'key') metrics.requestsMetered.inc({ api });
        if (status === 429) metrics.requestsRefused.inc({ api, caller });
      }
    }
  };
}
