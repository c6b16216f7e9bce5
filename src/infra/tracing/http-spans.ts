import type { MiddlewareHandler } from 'hono';
import type { RestEnv } from '../../rest/env.js';
import { routeTemplate } from '../metrics/http-timing.js';
import type { Tracing } from './tracing.js';

/**
 * One server span per HTTP request, named by method and route template
 * (`GET /api/v1/shows/:feed_id`), continuing the caller's trace when the
 * request carries a `traceparent`. Registered first, so that the door, the
 * handlers, GraphQL and the database queries below are its children.
 */
export function httpSpans(tracing: Tracing): MiddlewareHandler<RestEnv> {
  return (c, next) =>
    tracing.inSpan(
      c.req.method,
      {
        kind: 'server',
        carrier: (name) => c.req.header(name),
        attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path, 'user_agent.original': c.req.header('user-agent') },
      },
      async (span) => {
        await next();
        const status = c.res.status;
        const route = routeTemplate(c);
        span.updateName(`${c.req.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': status, 'podtext.operation': c.get('operation') });
        if (status >= 500) span.fail(`status ${status}`);
      },
    );
}
