import type { Context } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { errorPage } from './pages/error-page.js';

/**
 * The page a form posted to `path` sits on: an episode's for its unlock and
 * transcribe, the account page for the account's; sign-in's own; home for
 * the rest (register, confirm, sign out).
 */
export function formPage(path: string): string {
  if (/^\/t\/[^/]+\/(unlock|transcribe)$/.test(path)) return path.replace(/\/(unlock|transcribe)$/, '');
  if (path.startsWith('/account/')) return '/account';
  return path === '/signin' ? '/signin' : '/';
}

/**
 * The answer to a forged, cross-site or stale form: nothing was done, no
 * cookie is set. A stale one is most often a reload of the page a form
 * answered with (the key rotation's, whose session the rotation replaced):
 * reloading again posts it again, so the way on is the form's page.
 * `chrome`: a browser still signed in keeps Account and Sign out.
 */
export function formRefused(c: Context<RestEnv>, chrome: { signedIn: boolean; csrf: string } = { signedIn: false, csrf: '' }) {
  const message = 'This form was out of date or did not come from Podtext, so nothing was done. Open the page it was on again and send it from there.';
  return c.html(errorPage(403, 'Form refused', message, chrome, { href: formPage(c.req.path), label: 'Open the page again' }), 403);
}
