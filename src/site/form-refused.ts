import type { Context } from 'hono';
import { errorPage } from './pages/error-page.js';

/** The answer to a forged, cross-site or stale form: nothing was done, no cookie is set. */
export function formRefused(c: Context) {
  return c.html(errorPage(403, 'Form refused', 'This form is out of date or did not come from Podtext: reload the page and try again.'), 403);
}
