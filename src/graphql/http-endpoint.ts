import type { Context } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { requestCredentials } from '../rest/request-credentials.js';
import { sessionToken } from '../site/session.js';
import type { ContextSlot, PodtextYoga } from './yoga.js';

/** `/graphql` over HTTP and SSE: the caller's credentials go to yoga, whose door plugin admits each operation. */
export function graphqlOverHttp(yoga: PodtextYoga) {
  return (c: Context<RestEnv>) => {
    const credentials = requestCredentials(c);
    // A signed-in browser on the site itself (GraphiQL) calls with its session cookie.
    // Fetch metadata says the call came from this origin; other sites never send the cookie (SameSite=Lax) nor this header.
    if (c.req.header('sec-fetch-site') === 'same-origin') credentials.session = sessionToken(c);
    const slot: ContextSlot = { credentials, admission: null };
    return yoga.fetch(c.req.raw, { slot });
  };
}
