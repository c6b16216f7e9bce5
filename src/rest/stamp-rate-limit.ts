import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';
import type { RateLimitHeaders } from '../core/door/door.js';

/**
 * Puts the door's rate-limit headers on the answer of a Hono request (the
 * REST API and the website's actions), whatever the answer turns out to be.
 *
 * Served by Node, they go straight onto Node's response, where `writeHead`
 * merges them: the handler's own headers then stay a plain object, which
 * @hono/node-server writes as is, instead of a Fetch `Headers` built, filled
 * and read back for every response (`c.header` creates one). Without Node
 * (`app.request` in tests) they are set on the context.
 */
export function stampRateLimit(c: Context, headers: RateLimitHeaders): void {
  const outgoing = nodeResponse(c);
  if (outgoing) {
    outgoing.setHeader('X-RateLimit-Limit', headers['x-ratelimit-limit']);
    outgoing.setHeader('X-RateLimit-Remaining', headers['x-ratelimit-remaining']);
    return;
  }
  c.header('X-RateLimit-Limit', headers['x-ratelimit-limit']);
  c.header('X-RateLimit-Remaining', headers['x-ratelimit-remaining']);
}

/** Node's response under a Hono request, when served by @hono/node-server. */
export function nodeResponse(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}
