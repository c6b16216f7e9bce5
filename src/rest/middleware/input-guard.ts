import type { MiddlewareHandler } from 'hono';
import { invalid } from '../../core/errors.js';
import type { RestEnv } from '../env.js';

/** Deepest JSON nesting accepted. Default: 32. */
const MAX_DEPTH = 32;

/** The path of the first string holding a NUL, or of nesting past MAX_DEPTH. */
function findBadValue(value: unknown, path: string, depth: number): { path: string; why: string } | null {
  if (depth > MAX_DEPTH) return { path, why: `nested deeper than ${MAX_DEPTH} levels` };
  if (typeof value === 'string') return value.includes('\u0000') ? { path, why: 'contains a NUL character' } : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = findBadValue(value[i], `${path}[${i}]`, depth + 1);
      if (bad) return bad;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return { path: path ? `${path}.${k.replace(/\u0000/g, '\\0')}` : k, why: 'key contains a NUL character' };
      const bad = findBadValue(v, path ? `${path}.${k}` : k, depth + 1);
      if (bad) return bad;
    }
  }
  return null;
}

/**
 * Rejects, before any handler runs, input no handler should see: malformed
 * JSON, absurd nesting, NUL characters (PostgreSQL text cannot hold them).
 * Hono caches the parsed body, so the route's validator does not parse twice.
 */
export const inputGuard: MiddlewareHandler<RestEnv> = async (c, next) => {
  if (c.req.url.includes('%00')) {
    for (const [name, values] of Object.entries(c.req.queries())) {
      if (values.some((v) => v.includes('\u0000'))) throw invalid(name, 'contains a NUL character');
    }
    throw invalid('path', 'contains a NUL character');
  }
  const method = c.req.method;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const type = c.req.header('content-type') ?? '';
    const length = Number(c.req.header('content-length') ?? '-1');
    if (length !== 0 && (type === '' || /json/i.test(type))) {
      const text = await c.req.text();
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
  }
  await next();
};
