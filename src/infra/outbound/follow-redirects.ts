import { OutboundError } from './outbound-error.js';
import { sendOnce, type ClientContext, type OpenResponse } from './send-once.js';
import { parseTarget, redact } from './target-url.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/**
 * Dropped on a redirect to another origin. Besides the standard ones, the key
 * headers APIs use (Podcast Index's `X-Auth-Key`, `X-Api-Key`, `Api-Key`): a
 * redirect must not hand an operator's key to whichever host it names.
 */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-auth-key', 'x-api-key', 'api-key'];

export interface HopOptions {
  method: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body?: Buffer;
  /** 0 returns the 3xx as it came. */
  maxRedirects: number;
  httpsOnly: boolean;
  idleTimeoutMs: number;
}

function withUserInfo(headers: Record<string, string>, url: URL): Record<string, string> {
  if (!url.username && !url.password) return headers;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { ...headers, authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/**
 * Sends the request and follows redirects itself, so every hop passes the
 * scheme check and the address guard again: an allowed or public host that
 * redirects to 127.0.0.1:5432 is refused at that hop.
 */
export async function openFollowingRedirects(
  ctx: ClientContext,
  start: URL,
  options: HopOptions,
  signal: AbortSignal,
): Promise<{ open: OpenResponse; url: URL; permanentUrl: URL }> {
  let url = start;
  // Where the resource lives for good: followed only while every hop so far was permanent.
  let permanentUrl = start;
  let permanent = true;
  let method = options.method;
  let body = options.body;
  const headers = { ...options.headers };
  for (let redirects = 0; ; redirects += 1) {
    const exchange = { method, headers: withUserInfo(headers, url), body, idleTimeoutMs: options.idleTimeoutMs };
    const open = await sendOnce(ctx, url, exchange, signal);
    const status = open.response.statusCode ?? 0;
    const location = open.response.headers.location;
    if (options.maxRedirects === 0 || !REDIRECT_STATUSES.has(status) || !location) return { open, url, permanentUrl };

    open.response.destroy();
    if (redirects >= options.maxRedirects) {
      throw new OutboundError('too_many_redirects', `more than ${options.maxRedirects} redirects`, {
        url: redact(start),
      });
    }
    const next = parseTarget(location, options.httpsOnly, url);
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      // What browsers do; a 307/308 keeps the method and the body.
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      body = undefined;
      delete headers['content-type'];
      delete headers['content-length'];
    }
    if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
    permanent &&= status === 301 || status === 308;
    if (permanent) permanentUrl = next;
    url = next;
  }
}
