import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * A request header, read from Node's own parsed headers when served by
 * @hono/node-server: building a Fetch `Headers` object for every request costs
 * more than the rest of a warm `/me`.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) {
    const v = incoming.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return c.req.header(name);
}
