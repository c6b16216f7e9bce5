import type { Context } from 'hono';
import type { Logger } from '../infra/logger.js';
import { errorPage } from './pages/error-page.js';

const MACHINE_PATHS = ['/api/', '/graphql', '/hooks/', '/billing/webhook', '/openapi.json', '/llms.txt', '/healthz', '/livez', '/readyz', '/metrics'];

/** Whether a path belongs to the website (pages) rather than the API. */
export function isSitePath(path: string): boolean {
  return !MACHINE_PATHS.some((p) => path === p || path.startsWith(p));
}

/** An unexpected failure on a page: logged once, answered with the 500 page. */
export function sitePageError(c: Context, err: Error, log: Logger) {
  log.error({ err, path: c.req.path }, 'page failed');
  return c.html(errorPage(500, 'Something went wrong', 'Podtext could not show this page. Try again in a moment.'), 500);
}
