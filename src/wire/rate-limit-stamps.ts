import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';
import type { RateLimitHeaders } from '../core/door/door.js';

/**
 * The door's rate-limit figures, put on an answer the way each transport
 * carries them: headers on a Hono answer (REST, the website's actions) or a
 * Fetch `Response` (GraphQL over HTTP and SSE), `extensions.rateLimit` where
 * there are no headers (graphql-ws `next` payloads and `error` messages).
 * An answer carrying a secret gets `Cache-Control: no-store` with them.
 * The one place the figures become wire.
 */

/**
 * On a Hono answer, whatever it turns out to be. Served by Node, they go
 * straight onto Node's response, where `writeHead` merges them: the
 * handler's own headers then stay a plain object, which @hono/node-server
 * writes as is, instead of a Fetch `Headers` built, filled and read back for
 * every response (`c.header` creates one). Without Node (`app.request` in
 * tests) they are set on the context.
 */
export function stampRateLimit(c: Context, headers: RateLimitHeaders): void {
  const outgoing = nodeResponse(c);
  if (outgoing) {
    outgoing.setHeader('X-RateLimit-Limit', headers['x-ratelimit-limit']);
    outgoing.setHeader('X-RateLimit-Remaining', headers['x-ratelimit-remaining']);
    if (headers['cache-control']) outgoing.setHeader('Cache-Control', headers['cache-control']);
    return;
  }
  c.header('X-RateLimit-Limit', headers['x-ratelimit-limit']);
  c.header('X-RateLimit-Remaining', headers['x-ratelimit-remaining']);
  if (headers['cache-control']) c.header('Cache-Control', headers['cache-control']);
}

/** Node's response under a Hono request, when served by @hono/node-server. */
export function nodeResponse(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}

/** On a Fetch `Response` (yoga's answers over HTTP and SSE). */
export function stampResponse(response: Response, headers: RateLimitHeaders): void {
  response.headers.set('X-RateLimit-Limit', headers['x-ratelimit-limit']);
  response.headers.set('X-RateLimit-Remaining', headers['x-ratelimit-remaining']);
  if (headers['cache-control']) response.headers.set('Cache-Control', headers['cache-control']);
}

/** The figures as numbers, for `extensions.rateLimit`. */
function figures(headers: RateLimitHeaders) {
  return { limit: Number(headers['x-ratelimit-limit']), remaining: Number(headers['x-ratelimit-remaining']) };
}

/** In a graphql-ws `next` payload's `extensions`. */
export function stampPayload(result: ExecutionResult, headers: RateLimitHeaders | undefined): ExecutionResult {
  if (!headers) return result;
  return { ...result, extensions: { ...result.extensions, rateLimit: figures(headers) } };
}

/** A graphql-ws `error` message has no payload extensions: each error carries the figures in its own. */
export function stampErrors(errors: readonly GraphQLError[], headers: RateLimitHeaders | undefined): GraphQLFormattedError[] {
  return errors.map((e) => {
    const json = e.toJSON();
    return headers ? { ...json, extensions: { ...json.extensions, rateLimit: figures(headers) } } : json;
  });
}
