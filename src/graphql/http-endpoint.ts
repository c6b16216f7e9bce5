import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Credentials } from '../core/door/credentials.js';
import type { Door } from '../core/door/door.js';
import { type ErrorCode, errorStatus } from '../core/errors.js';
import { stampRateLimit } from '../wire/rate-limit-stamps.js';
import type { RestEnv } from '../rest/env.js';
import { bodyUnread, requestCredentials } from '../rest/request-credentials.js';
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
 * An answer on `/graphql` made before yoga runs, in GraphQL's error shape:
 * counted and stamped as one call through the door, whose own refusal (a
 * wrong key, a spent allowance) comes first, as on REST.
 */
async function refuseEarly(c: Context<RestEnv>, door: Door, siteOrigin: string, refusal: { code: ErrorCode; message: string; field?: string }) {
  const admission = await door.admit({ operation: 'unknownCall' }, graphqlCredentials(c, siteOrigin));
  stampRateLimit(c, admission.headers);
  // yoga's CORS does not run here: a page, of this site or another, still reads the refusal and its figures.
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    const own = origin === siteOrigin;
    c.header('Access-Control-Allow-Origin', own ? siteOrigin : '*');
    if (own) c.header('Access-Control-Allow-Credentials', 'true');
    c.header('Vary', 'Origin');
    c.header('Access-Control-Expose-Headers', 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, Allow');
  }
  // Node would read and drop, or cut off, a body nobody read: the connection is not offered again.
  if (bodyUnread(c)) c.header('Connection', 'close');
  const error = admission.error;
  // A spent allowance says when it resets, as everywhere else.
  if (error?.details?.retryAfter) c.header('Retry-After', String(error.details.retryAfter));
  const { code, message, field } = error ? { code: error.code, message: error.message, field: undefined } : refusal;
  const later = error?.details?.retryAfter ? { retryAfter: error.details.retryAfter } : {};
  return c.json({ errors: [{ message, extensions: { code, ...(field ? { field } : {}), ...later } }] }, errorStatus[code] as ContentfulStatusCode);
}

/**
 * A method GraphQL does not take (PUT, DELETE, PATCH…) on `/graphql`: one
 * call, as REST's 405 is, answered with `Allow`.
 */
export function graphqlWrongMethod(door: Door, siteOrigin: string) {
  return (c: Context<RestEnv>) => {
    c.header('Allow', 'GET, POST, OPTIONS');
    return refuseEarly(c, door, siteOrigin, { code: 'method_not_allowed', message: `${c.req.method} is not allowed on /graphql; use GET or POST.` });
  };
}

/** A body over `maxBytes` on `/graphql`, refused before it is read: one call, as REST's 413 is. */
export function graphqlBodyLimit(door: Door, siteOrigin: string, maxBytes: number): MiddlewareHandler<RestEnv> {
  const limited = bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // What was sent is not read to its end: the connection is not offered again.
      c.header('Connection', 'close');
      return refuseEarly(c as Context<RestEnv>, door, siteOrigin, { code: 'payload_too_large', message: `body: larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, field: 'body' });
    },
  });
  return (c, next) => (c.req.method === 'POST' ? limited(c, next) : next());
}
