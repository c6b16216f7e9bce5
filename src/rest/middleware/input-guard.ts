import type { Context, MiddlewareHandler, Next } from 'hono';
import { NOT_UTF8, utf8OrNull } from '../../core/decode-text.js';
import { findBadValue } from '../../core/door/bad-input.js';
import { invalid } from '../../core/errors.js';
import type { RestEnv } from '../env.js';

/**
 * Rejects, before any handler runs, input no handler should see: malformed
 * JSON, bodies that are not UTF-8, absurd nesting, NUL characters (PostgreSQL text cannot hold them).
 * Hono caches the parsed body, so the route's validator does not parse twice.
 */
export const inputGuard: MiddlewareHandler<RestEnv> = (c, next) => {
  if (c.req.url.includes('%00')) {
    for (const [name, values] of Object.entries(c.req.queries())) {
      if (values.some((v) => v.includes('\u0000'))) throw invalid(name, 'contains a NUL character');
    }
    throw invalid('path', 'contains a NUL character');
  }
  const query = c.req.url.indexOf('?');
  if (query >= 0 && c.req.url.includes('%', query)) checkEncoding(c.req.url.slice(query + 1));
  const method = c.req.method;
  // Not async for a call without a body: it passes on next's promise instead of wrapping it.
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
  return checkedBody(c, next);
};

async function checkedBody(c: Context<RestEnv>, next: Next): Promise<void> {
  const type = c.req.header('content-type') ?? '';
  const length = Number(c.req.header('content-length') ?? '-1');
  if (length !== 0 && (type === '' || /json/i.test(type))) {
    const text = utf8OrNull(await c.req.arrayBuffer());
    if (text === null) throw invalid('body', NOT_UTF8);
    if (text.trim() !== '') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw invalid('body', 'malformed JSON');
      }
      const bad = findBadValue(body, '', 0);
      if (bad) throw invalid(bad.path || 'body', bad.why);
    }
  }
  await next();
}

/**
 * A query value whose percent-escapes are not UTF-8 (`q=%FF`) would reach the
 * route as its raw text and be searched for as typed; it is refused instead.
 */
function checkEncoding(query: string): void {
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    for (const part of [name, value]) {
      try {
        decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        throw invalid(safeName(name), 'not valid percent-encoded UTF-8');
      }
    }
  }
}

function safeName(name: string): string {
  try {
    return decodeURIComponent(name) || 'query';
  } catch {
    return 'query';
  }
}
