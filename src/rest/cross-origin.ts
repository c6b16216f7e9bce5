import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { nodeResponse } from '../wire/rate-limit-stamps.js';

/**
 * The API answers pages of any origin: a key travels in a header, never in a
 * cookie, so a page can only spend a key it was given. Browsers may then read
 * the answer and the headers a client needs (rate-limit figures, when to
 * retry, the ETag to revalidate with).
 */
export const ANSWER_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, ETag, Allow',
};

/** What a preflight may ask for, and how long the browser may keep the answer (a day). */
const PREFLIGHT_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Headers': 'Authorization, X-Api-Key, Content-Type, If-None-Match',
  'Access-Control-Max-Age': '86400',
};

/** Whether a browser sent the request (it names the page's origin): read from Node's raw header lines. */
function fromPage(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header('origin') !== undefined;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 6 && raw[i]!.toLowerCase() === 'origin') return true;
  return false;
}

function put(c: Context, headers: Record<string, string>): void {
  const outgoing = nodeResponse(c);
  for (const [name, value] of Object.entries(headers)) {
    if (outgoing) outgoing.setHeader(name, value);
    else c.header(name, value);
  }
}

/**
 * Stamps the cross-origin headers on the answer to a browser's request,
 * whatever the answer turns out to be. Requests without `Origin` (servers,
 * curl) get none.
 */
export function allowCrossOrigin(c: Context): void {
  if (fromPage(c)) put(c, ANSWER_HEADERS);
}

/** A browser's preflight (`OPTIONS`) also learns the route's methods and the headers it may send. */
export function answerPreflight(c: Context, methods: string): void {
  if (fromPage(c)) put(c, { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Methods': methods });
}
