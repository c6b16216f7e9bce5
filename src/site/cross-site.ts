import type { Context } from 'hono';
import type { RestEnv } from '../rest/env.js';

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null; // "null": a sandboxed frame, a data: page, a redirect across origins
  }
}

/**
 * Whether a form was posted by a page of another origin (after Go's
 * http.CrossOriginProtection). Every current browser says where a request
 * comes from in Sec-Fetch-Site; older ones still send Origin with a POST. A
 * request with neither is not one a page of another site made a browser
 * send (curl, or a browser from before ~2020): the form token alone decides
 * it. "same-site" is refused too: a sibling subdomain is another origin.
 */
export function fromAnotherOrigin(c: Context<RestEnv>): boolean {
  const origin = c.req.header('origin');
  // A page at SITE_URL is ours even when a proxy rewrote the Host we see.
  if (origin && origin === new URL(c.get('services').links.site).origin) return false;
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  if (!origin) return false;
  return hostOf(origin) !== new URL(c.req.url).host;
}
