import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorPage } from './pages/error-page.js';

/**
 * The website's forms carry an address, a token or a plan: a few hundred
 * bytes. Parsing a form holds several copies of it in memory, so a larger body
 * is refused before it is read, as the API refuses one over 1 MB.
 */
export const FORM_MAX_BYTES = 16 * 1024;

const limited = bodyLimit({
  maxSize: FORM_MAX_BYTES,
  onError: (c) => {
    // What was sent is not read to its end: the connection is not offered again.
    c.header('Connection', 'close');
    return c.html(errorPage(413, 'Form too large', 'What was sent is larger than any form on this site. Go back and try again.'), 413);
  },
});

/** The body limit for every page's POST; reads pass untouched. */
export const formLimit: MiddlewareHandler = (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limited(c, next));
