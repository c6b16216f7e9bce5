import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Metrics } from './metrics.js';
import type { HistogramSeries } from './series-histogram.js';

/**
 * The template of the route the request matched: the last matched handler
 * registered for a method (middleware is registered for every method), even
 * when middleware answered first (a refusal at the door). `unmatched` when no
 * route matched.
 */
export function routeTemplate(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i]!.method !== 'ALL') return routes[i]!.path;
  return c.res.status === 404 ? 'unmatched' : c.req.routePath;
}

/**
 * Times every request into `podtext_http_request_duration_seconds`, labelled
 * with the route template Hono matched (`/api/v1/shows/:id`, never the raw
 * path: ids would make a series per show), and counts the requests being
 * answered (`httpInFlight`). Register first, so that it sees the final status.
 */
export function httpTiming(metrics: Metrics): MiddlewareHandler {
  // One series per label set, found by a string rather than a labels object.
  const children = new Map<string, HistogramSeries>();
  const child = (method: string, route: string, status: string) => {
    const key = `${method} ${status} ${route}`;
    let found = children.get(key);
    if (!found) children.set(key, (found = metrics.httpDuration.series({ method, route, status })));
    return found;
  };
  const inFlight = metrics.httpInFlight;
  return async (c, next) => {
    const started = performance.now();
    inFlight.value++;
    try {
      await next();
    } finally {
      inFlight.value--;
      const status = c.res.status;
      const route = routeTemplate(c);
      child(c.req.method, route, String(status)).observe((performance.now() - started) / 1000);
    }
  };
}
