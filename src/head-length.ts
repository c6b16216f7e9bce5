import type { Context, MiddlewareHandler, Next } from 'hono';

/**
 * A HEAD answer says how long the GET's body would be. Hono answers HEAD by
 * running the GET route and dropping its body, and the length Node would have
 * written for that body goes with it; download tools read the size from HEAD.
 * Streams and media (SSE, audio and artwork passed through) are left without one. Not async for
 * other methods: they pass on next's promise, unwrapped.
 */
export const headLength: MiddlewareHandler = (c, next) => (c.req.method === 'HEAD' ? withLength(c, next) : next());

async function withLength(c: Context, next: Next): Promise<void> {
  await next();
  if (!c.res.body || c.res.headers.has('content-length')) return;
  if (/event-stream|audio|video|image|octet-stream/.test(c.res.headers.get('content-type') ?? '')) return;
  c.res.headers.set('content-length', String((await c.res.clone().arrayBuffer()).byteLength));
}
