import type { Context } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { requestCredentials } from '../rest/request-credentials.js';
import type { ContextSlot, PodtextYoga } from './yoga.js';

/** `/graphql` over HTTP and SSE: the caller's credentials go to yoga, whose door plugin admits each operation. */
export function graphqlOverHttp(yoga: PodtextYoga) {
  return (c: Context<RestEnv>) => {
    const slot: ContextSlot = { credentials: requestCredentials(c), admission: null };
    return yoga.fetch(c.req.raw, { slot });
  };
}
