import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, errorStatus } from '../core/errors.js';
import { databaseTrouble, databaseUnavailable } from '../infra/db/unavailable.js';
import type { Logger } from '../infra/logger.js';
import type { RestEnv } from '../rest/env.js';
import { errorPage } from './pages/error-page.js';
import { csrfToken, siteActor } from './session.js';

const MACHINE_PATHS = ['/api/', '/graphql', '/hooks/', '/billing/webhook', '/openapi.json', '/llms.txt', '/livez', '/readyz', '/metrics'];

/** Whether a path belongs to the website (pages) rather than the API. */
export function isSitePath(path: string): boolean {
  return !MACHINE_PATHS.some((p) => path === p || path.startsWith(p));
}

/** No page at this address; a signed-in browser keeps its Account and Sign out links. */
export async function sitePageNotFound(c: Context<RestEnv>) {
  const actor = await siteActor(c);
  return c.html(errorPage(404, 'Page not found', `There is no page at ${c.req.path}.`, { signedIn: actor !== null, csrf: actor ? csrfToken(c) : '' }), 404);
}

/**
 * A failure on a page. A refusal (a domain error no handler turned into a
 * page of its own, such as a form that cannot be read) is its page with its
 * status; anything else is logged once and answered with the 500 page (503
 * while the database is unreachable).
 */
export function sitePageError(c: Context, err: Error, log: Logger) {
  const unavailable = databaseUnavailable(err);
  if (unavailable) {
    const trouble = databaseTrouble(err);
    log.warn({ err, path: c.req.path }, `database ${trouble}`);
    c.header('Retry-After', String(unavailable.details?.retryAfter));
    const why = trouble === 'busy' ? 'Its database is too busy to answer right now.' : 'Podtext cannot reach its database right now.';
    return c.html(errorPage(503, 'Podtext is briefly unavailable', `${why} Try again in a few seconds.`), 503);
  }
  if (err instanceof DomainError) {
    const status = errorStatus[err.code] as ContentfulStatusCode;
    if (err.details?.retryAfter) c.header('Retry-After', String(err.details.retryAfter));
    return c.html(errorPage(status, 'That did not work', err.message), status);
  }
  log.error({ err, path: c.req.path }, 'page failed');
  return c.html(errorPage(500, 'Something went wrong', 'Podtext could not show this page. Try again in a moment.'), 500);
}
