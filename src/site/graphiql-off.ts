import type { Context, Next } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { errorPage } from './pages/error-page.js';

/**
 * `/graphql` opened in a browser where GraphiQL is off (`NODE_ENV=production`):
 * the site's navigation links there, and without this the visitor got
 * GraphQL's bare `query: required` error. A page says how to call it instead;
 * every request that carries a document (or asks for JSON or a stream) goes on
 * to GraphQL as before.
 */
export function graphiqlOffPage(siteUrl: string) {
  return (c: Context<RestEnv>, next: Next) => {
    const browsing = c.req.method === 'GET' && c.req.query('query') === undefined && /\btext\/html\b/.test(c.req.header('accept') ?? '');
    if (!browsing) return next();
    const message = `GraphiQL is off on this server. Send GraphQL operations with POST to ${siteUrl}/graphql (Content-Type: application/json, your key in "Authorization: Bearer <key>"), or subscribe over graphql-ws at the same address. The API docs describe the REST API.`;
    return c.html(errorPage(404, 'GraphiQL is off here', message, {}, { href: '/docs', label: 'API docs' }), 404);
  };
}
