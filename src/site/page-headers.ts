import type { MiddlewareHandler } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { sessionToken } from './session.js';

/**
 * The site's own pages load only their own scripts, styles and images; the
 * episode's audio comes from its publisher, anywhere. No page may be framed:
 * the account's one-button forms (rotate the key, unlock, transcribe) would
 * otherwise be one disguised click away on any other site.
 */
const OWN_PAGES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  'media-src * data: blob:',
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Swagger UI and GraphiQL bring inline styles and scripts of their own: only framing is refused there. */
const TOOL_PAGES = "frame-ancestors 'none'";
const TOOL_PATHS = new Set(['/docs', '/graphql']);

/**
 * Security headers on every HTML page. A signed-in visitor's pages (and the
 * downloads made with the session) are stored by no cache at all, whatever
 * the page asked for: each carries the session's form token, and an account's
 * data must not outlive the session in the browser's cache.
 */
export const pageHeaders: MiddlewareHandler<RestEnv> = async (c, next) => {
  await next();
  const headers = c.res.headers;
  const type = headers.get('content-type') ?? '';
  const page = type.startsWith('text/html');
  if (sessionToken(c) && (page || headers.has('content-disposition'))) headers.set('cache-control', 'private, no-store');
  if (!page) return;
  headers.set('content-security-policy', TOOL_PATHS.has(c.req.path) ? TOOL_PAGES : OWN_PAGES);
  headers.set('x-frame-options', 'DENY');
  headers.set('x-content-type-options', 'nosniff');
  headers.set('referrer-policy', 'strict-origin-when-cross-origin');
};
