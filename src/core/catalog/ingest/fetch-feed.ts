import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import { OutboundError } from '../../../infra/outbound/outbound-error.js';
import { charsetOf } from '../../decode-text.js';

/** Limits on one feed download. */
export interface FeedFetchLimits {
  /** Largest feed accepted, in bytes (decoded); larger ones are cut off while downloading. Default: 15728640 (15 MB). */
  maxFeedBytes: number;
  /** Whole exchange, redirects and body included, in ms. Default: 60000. */
  feedTimeoutMs: number;
}

export const defaultFeedFetchLimits: FeedFetchLimits = { maxFeedBytes: 15 * 1024 * 1024, feedTimeoutMs: 60_000 };

/** What the server last told us, sent back so an unchanged feed costs a 304. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedFetch = (
  | { kind: 'not_modified' }
  | { kind: 'ok'; body: Buffer; validators: FeedValidators; /** The `charset` of its `Content-Type`, if any. */ charset?: string }
) & {
  /** The feed's new address, when it answered through permanent redirects only. */
  movedTo?: string;
};

/**
 * Why a feed could not be read. `refused`: a URL the guarded client will never
 * fetch (private address, bad scheme, not a URL). `missing`: nothing there (no
 * such host name, or a 4xx). Both are the URL's fault, not the publisher's
 * server having a bad moment.
 */
export class FeedFetchError extends Error {
  constructor(
    message: string,
    readonly reason: 'refused' | 'missing' | 'unavailable',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FeedFetchError';
  }
}

const REFUSED = new Set(['blocked_address', 'bad_scheme', 'bad_url']);
const ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5';

/**
 * GETs a feed through the guarded client, conditionally when validators are
 * given (If-None-Match / If-Modified-Since).
 *
 * @throws FeedFetchError for transport failures, refused URLs and any status but 2xx and 304.
 */
export async function fetchFeed(
  outbound: OutboundClient,
  url: string,
  validators: FeedValidators | null,
  limits: FeedFetchLimits,
  signal?: AbortSignal,
): Promise<FeedFetch> {
  const headers: Record<string, string> = { accept: ACCEPT };
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  let res;
  try {
    res = await outbound.request(url, { headers, maxBytes: limits.maxFeedBytes, timeoutMs: limits.feedTimeoutMs, signal });
  } catch (err) {
    if (err instanceof OutboundError) {
      const reason = REFUSED.has(err.code) ? 'refused' : /\bENOTFOUND\b/.test(err.message) ? 'missing' : 'unavailable';
      throw new FeedFetchError(`${err.code}: ${err.message}`, reason);
    }
    throw err;
  }
  const moved = res.movedTo ? { movedTo: res.movedTo } : {};
  if (res.status === 304) return { kind: 'not_modified', ...moved };
  if (res.status < 200 || res.status >= 300) {
    const missing = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    throw new FeedFetchError(`the feed server answered ${res.status}`, missing ? 'missing' : 'unavailable', res.status);
  }
  return {
    kind: 'ok',
    ...moved,
    body: res.body,
    charset: charsetOf(res.headers['content-type']),
    validators: { etag: res.headers.etag ?? null, lastModified: res.headers['last-modified'] ?? null },
  };
}
