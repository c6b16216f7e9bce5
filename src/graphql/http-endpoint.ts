import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Credentials } from '../core/door/credentials.js';
import type { RestEnv } from '../rest/env.js';
import { requestCredentials } from '../rest/request-credentials.js';
import { SESSION_COOKIE } from '../site/session.js';
import type { ContextSlot, PodtextYoga } from './yoga.js';

/**
 * The website's session counts only for requests the site's own pages make
 * (GraphiQL for a signed-in visitor): another site's page could otherwise
 * spend the visitor's allowance and credits with their cookie.
 */
function sameSite(c: Context<RestEnv>, siteOrigin: string): boolean {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite) return fetchSite === 'same-origin';
  return c.req.header('origin') === siteOrigin;
}

/** `/graphql` over HTTP and SSE: the caller's credentials go to yoga, whose door plugin admits each operation. */
export function graphqlOverHttp(yoga: PodtextYoga, siteOrigin: string) {
  return (c: Context<RestEnv>) => {
    let credentials: Credentials = requestCredentials(c);
    const session = getCookie(c, SESSION_COOKIE);
    if (session && sameSite(c, siteOrigin)) credentials = { ...credentials, session };
    const slot: ContextSlot = { credentials, admission: null };
    return yoga.fetch(c.req.raw, { slot });
  };
}
