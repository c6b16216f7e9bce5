import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { RestEnv } from '../rest/env.js';
import { fromAnotherOrigin } from './cross-site.js';
import { formRefused } from './form-refused.js';
import { readForm } from './read-form.js';

/**
 * The CSRF token of the forms a visitor posts before having a session (sign
 * in, register, confirm): a double-submit cookie. The browser holds a random
 * HttpOnly cookie, the form carries a hash of it; a page of another site can
 * read neither. On https the cookie is `__Host-`, so no sibling subdomain can
 * plant one of its own.
 */
function cookieName(c: Context<RestEnv>): { name: string; secure: boolean } {
  const secure = c.get('services').links.site.startsWith('https:');
  return { name: secure ? '__Host-podtext_form' : 'podtext_form', secure };
}

const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

function tokenFor(cookie: string): string {
  return createHash('sha256').update(`form:${cookie}`).digest('base64url');
}

/** This browser's form token, handing it the cookie first if it has none. Pages showing it are not for shared caches. */
export function formToken(c: Context<RestEnv>): string {
  const { name, secure } = cookieName(c);
  let cookie = getCookie(c, name);
  if (!cookie || !WELL_FORMED.test(cookie)) {
    cookie = randomBytes(32).toString('base64url');
    // A browser-session cookie: reused by every tab, so several open forms all stay valid.
    setCookie(c, name, cookie, { httpOnly: true, sameSite: 'Lax', secure, path: '/' });
  }
  c.header('cache-control', 'private, no-cache');
  return tokenFor(cookie);
}

/**
 * A post no page made a browser send: no `Origin`, no `Sec-Fetch-Site` (every
 * browser of the last years sends one of them with a form post) and no form
 * cookie. A script signing in with its key, as the API's own clients do; no
 * other site can make a visitor's browser send such a request.
 */
function fromAScript(c: Context<RestEnv>, cookie: string | undefined): boolean {
  return cookie === undefined && c.req.header('origin') === undefined && c.req.header('sec-fetch-site') === undefined;
}

/**
 * Guards a form posted without a session: refused (403, nothing done, no
 * cookie set) when it comes from another origin or, from a browser, lacks
 * this browser's form token in `csrf`.
 */
export const requireFormToken: MiddlewareHandler<RestEnv> = async (c, next) => {
  if (fromAnotherOrigin(c)) return formRefused(c);
  const cookie = getCookie(c, cookieName(c).name);
  if (fromAScript(c, cookie)) return next();
  const form = await readForm(c);
  const given = Buffer.from(typeof form.csrf === 'string' ? form.csrf : '');
  const want = Buffer.from(cookie && WELL_FORMED.test(cookie) ? tokenFor(cookie) : '');
  if (want.length === 0 || given.length !== want.length || !timingSafeEqual(given, want)) return formRefused(c);
  await next();
};
