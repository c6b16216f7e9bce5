import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { Services } from './core/services.js';
import { createGraphQL, type PodtextYoga } from './graphql/yoga.js';
import { graphqlBodyLimit, graphqlOverHttp, graphqlWrongMethod } from './graphql/http-endpoint.js';
import { graphqlMetricsPlugin } from './infra/metrics/graphql-metrics.js';
import { httpTiming } from './infra/metrics/http-timing.js';
import { graphqlSpans } from './infra/tracing/graphql-spans.js';
import { httpSpans } from './infra/tracing/http-spans.js';
import { tracing } from './infra/tracing/tracing.js';
import { createRestApi } from './rest/api-app.js';
import type { RestEnv } from './rest/env.js';
import { errorBody, toErrorResponse } from './rest/error-response.js';
import { restDoor, routeMatcher } from './rest/middleware/door.js';
import { inputGuard } from './rest/middleware/input-guard.js';
import { MemoRouter } from './memo-router.js';
import { llmsText, openApiDocument } from './rest/openapi-document.js';
import { registerInboxReceiver } from './rest/routes/webhooks.js';
import { isSitePath, sitePageError, sitePageNotFound } from './site/site-errors.js';
import { registerBillingReceivers } from './rest/routes/billing-webhook.js';
import { type OperationsHooks, registerOperationsRoutes } from './site/operations-routes.js';
import { pageHeaders } from './site/page-headers.js';
import { headLength } from './head-length.js';
import { registerSiteRoutes } from './site/site-routes.js';
import { graphiqlOffPage } from './site/graphiql-off.js';

import { MAX_BODY_BYTES } from './rest/schemas/common.js';

export { MAX_BODY_BYTES };

/** Where the spec's REST API is mounted. */
export const API_PREFIX = '/api/v1';

export interface HttpApp {
  app: Hono<RestEnv>;
  yoga: PodtextYoga;
}

/** REST under /api/v1, GraphQL at /graphql, and the site, over one set of services. */
export function createHttpApp(services: Services, options: { siteUrl: string; production: boolean; operations?: OperationsHooks }): HttpApp {
  // `strict: false`: a trailing slash (`/api/v1/me/`) reaches the same route, as the door already counts it.
  const app = new Hono<RestEnv>({ router: new MemoRouter(), strict: false });
  const ops = options.operations;
  const traces = tracing();
  // First, so that everything below runs inside the request's span.
  if (traces.enabled) app.use('*', httpSpans(traces));
  // Early, so that it times everything and sees the final status.
  if (ops) app.use('*', httpTiming(ops.metrics));
  const onError = (err: Error, c: Parameters<typeof toErrorResponse>[0]) => toErrorResponse(c, err, services.log);
  // The website answers with pages; the API and machine paths with the error body.
  app.onError((err, c) => (isSitePath(c.req.path) ? sitePageError(c, err, services.log) : onError(err, c)));
  app.notFound((c) =>
    isSitePath(c.req.path) ? sitePageNotFound(c) : c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}`), 404),
  );
  app.use('*', headLength);
  // Not async: a middleware that only passes on returns next's promise instead of wrapping it in one more.
  app.use('*', (c, next) => {
    c.set('services', services);
    c.set('log', services.log);
    return next();
  });
  if (ops) registerOperationsRoutes(app, ops);

  // No error handler of its own: Hono would wrap every route in one more
  // compose for it, and the app's handler below answers the same way.
  const api = createRestApi();
  const bodyLimited = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new HTTPException(413);
    },
  });
  // Only requests that carry a body: touching the body of a GET would make the
  // Node adapter build a full Request object on the hot read path.
  const limit: MiddlewareHandler<RestEnv> = (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : bodyLimited(c, next));
  // The door comes first, so every answer below it is counted and stamped.
  app.use(`${API_PREFIX}/*`, restDoor(routeMatcher(api, API_PREFIX)));
  app.use(`${API_PREFIX}/*`, limit);
  app.use(`${API_PREFIX}/*`, inputGuard);
  app.route(API_PREFIX, api);
  // Test inboxes receive from anyone, without a key: {site_url}/hooks/inbox/{id}.
  registerInboxReceiver(app);
  registerBillingReceivers(app);

  const yoga = createGraphQL(services, { production: options.production, siteUrl: options.siteUrl, plugins: [...(ops ? [graphqlMetricsPlugin(ops.metrics, ops.draining)] : []), ...(traces.enabled ? [graphqlSpans(traces)] : [])] });
  app.use('/graphql', graphqlBodyLimit(services.door, new URL(options.siteUrl).origin, MAX_BODY_BYTES));
  app.use('/graphql', pageHeaders);
  if (options.production) app.get('/graphql', graphiqlOffPage(options.siteUrl));
  app.on(['GET', 'POST', 'OPTIONS'], '/graphql', graphqlOverHttp(yoga, new URL(options.siteUrl).origin));
  app.all('/graphql', graphqlWrongMethod(services.door, new URL(options.siteUrl).origin));

  const openapi = openApiDocument(api, options.siteUrl);
  registerSiteRoutes(app, { openapi, llms: llmsText(openapi, options.siteUrl) }, ops?.draining);
  return { app, yoga };
}
