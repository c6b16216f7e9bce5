import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Credentials } from '../core/door/credentials.js';
import type { Door } from '../core/door/door.js';
import { stampRateLimit } from '../wire/rate-limit-stamps.js';
import type { RestEnv } from '../rest/env.js';
import { requestCredentials } from '../rest/request-credentials.js';
import { sessionToken } from '../site/session.js';
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

/** Who calls: the key in a header, or the website's session from its own pages. */
function graphqlCredentials(c: Context<RestEnv>, siteOrigin: string): Credentials {
  const credentials: Credentials = requestCredentials(c);
  const session = sessionToken(c);
  return session && sameSite(c, siteOrigin) ? { ...credentials, session } : credentials;
}

/** `/graphql` over HTTP and SSE: the caller's credentials go to yoga, whose door plugin admits each operation. */
export function graphqlOverHttp(yoga: PodtextYoga, siteOrigin: string) {
  return (c: Context<RestEnv>) => {
    const slot: ContextSlot = { credentials: graphqlCredentials(c, siteOrigin), admission: null };
    return yoga.fetch(c.req.raw, { slot });
  };
}

/**
 * A body over `maxBytes` on `/graphql`, refused before it is read: counted and
 * stamped as one call, as REST's 413 is, and answered in GraphQL's error shape.
 */
export function graphqlBodyLimit(door: Door, siteOrigin: string, maxBytes: number): MiddlewareHandler<RestEnv> {
  const limited = bodyLimit({
    maxSize: maxBytes,
    onError: async (c) => {
      const admission = await door.admit({ operation: 'unknownCall' }, graphqlCredentials(c as Context<RestEnv>, siteOrigin));
      stampRateLimit(c, admission.headers);
      // What was sent is not read to its end: the connection is not offered again.
      c.header('Connection', 'close');
      const message = `body: larger than ${Math.round(maxBytes / 1024 / 1024)} MB`;
      return c.json({ errors: [{ message, extensions: { code: 'payload_too_large', field: 'body' } }] }, 413);
    },
  });
  return (c, next) => (c.req.method === 'POST' ? limited(c, next) : next());
}
