import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Actor } from '../core/accounts/actor.js';
import type { OperationName } from '../core/door/operations.js';
import { DomainError } from '../core/errors.js';
import type { RestEnv } from '../rest/env.js';
import { stampRateLimit } from '../wire/rate-limit-stamps.js';
import { fromAnotherOrigin } from './cross-site.js';
import { formPage, formRefused } from './form-refused.js';
import type { PageChrome } from './layout.js';
import { errorPage } from './pages/error-page.js';
import { readForm } from './read-form.js';

/**
 * The website's sign-in cookie. On https it is Secure and `__Host-`: a
 * sibling subdomain can then neither plant a session of its choosing (its
 * own account, which the visitor would act as) nor overwrite this one.
 */
function sessionCookie(c: Context<RestEnv>): { name: string; secure: boolean } {
  const secure = c.get('services').links.site.startsWith('https:');
  return { name: secure ? '__Host-podtext_session' : 'podtext_session', secure };
}

/** The session token this browser sent, if any. */
export function sessionToken(c: Context<RestEnv>): string | null {
  return getCookie(c, sessionCookie(c).name) ?? null;
}

/**
 * The one place the website learns who is signed in: the account behind the
 * session cookie, or null for a visitor (also when the session ended, e.g.
 * because its key was rotated).
 */
export async function siteActor(c: Context<RestEnv>): Promise<Actor | null> {
  const token = sessionToken(c);
  if (!token) return null;
  try {
    // Through the door, like every other caller; site pages themselves are not metered.
    return await c.get('services').door.authenticate({ session: token });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'unauthorized') return null;
    throw err;
  }
}

/** The CSRF token for this browser's forms (empty for a visitor). */
export function csrfToken(c: Context<RestEnv>): string {
  const token = sessionToken(c);
  return token ? c.get('services').sessions.csrf(token) : '';
}

/** Opens a session for `key` and hands this browser its cookie. @returns the new session's CSRF token. */
export async function signIn(c: Context<RestEnv>, key: string): Promise<string> {
  const s = await c.get('services').sessions.create(key);
  const { name, secure } = sessionCookie(c);
  setCookie(c, name, s.token, { httpOnly: true, sameSite: 'Lax', secure, path: '/', expires: s.expiresAt });
  return s.csrf;
}

export async function signOut(c: Context<RestEnv>): Promise<void> {
  const token = sessionToken(c);
  if (token) await c.get('services').sessions.revoke(token);
  const { name, secure } = sessionCookie(c);
  deleteCookie(c, name, { path: '/', secure });
}

/**
 * Every form of a signed-in browser posts the session's CSRF token as `csrf`;
 * without it (or with another session's), or posted from another origin, the
 * request is refused with 403. SameSite=Lax already keeps other sites' POSTs
 * cookieless; these are the second and third locks. (Forms posted before
 * there is a session use `requireFormToken`.)
 */
export const requireCsrf: MiddlewareHandler<RestEnv> = async (c, next) => {
  if (fromAnotherOrigin(c)) return formRefused(c);
  const token = sessionToken(c);
  const form = await readForm(c);
  const given = typeof form.csrf === 'string' ? form.csrf : null;
  if (!token || !c.get('services').sessions.checkCsrf(token, given)) {
    // A stale form of a browser still signed in (a reload of an old answer): it keeps Account and Sign out.
    const signedIn = (await siteActor(c)) !== null;
    return formRefused(c, { signedIn, csrf: signedIn ? csrfToken(c) : '' });
  }
  await next();
};

/** Where a refused or signed-out action sends the browser: the page the form was on, never another site. */
function signInFor(c: Context<RestEnv>) {
  return c.redirect(`/signin?next=${encodeURIComponent(formPage(c.req.path))}`, 303);
}

/** A spent daily allowance, as a page: when it comes back (`Retry-After`, as the API's 429 says) and that nothing was done. */
export function allowanceSpent(c: Context<RestEnv>, err: DomainError, chrome: PageChrome) {
  if (err.details?.retryAfter) c.header('Retry-After', String(err.details.retryAfter));
  return c.html(errorPage(429, 'Daily request allowance spent', `${err.message} Nothing was done and no credits were spent. A higher plan has a larger allowance.`, chrome), 429);
}

/**
 * A website action is admitted through the door as the operation it
 * performs, with the session as its credential: it counts one request
 * against the same daily allowance as the API call, and a spent allowance
 * refuses it before anything changes (no credit is spent). Runs after
 * `requireCsrf`, so a forged form is not counted. Sets `actor`.
 */
export function admitAction(operation: OperationName): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    const token = sessionToken(c);
    if (!token) return signInFor(c);
    const admission = await c.get('services').door.admit({ operation }, { session: token });
    stampRateLimit(c, admission.headers);
    const err = admission.error;
    if (err?.code === 'unauthorized' || (!err && !admission.actor)) return signInFor(c);
    // Refused, yet still signed in: the page's navigation says so.
    const chrome = { signedIn: true, csrf: csrfToken(c) };
    if (err?.code === 'rate_limited') return allowanceSpent(c, err, chrome);
    if (err) return c.html(errorPage(400, 'That did not work', err.message, chrome), 400);
    c.set('actor', admission.actor!);
    await next();
  };
}
