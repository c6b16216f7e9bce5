import { createSecureContext, rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import { endpointKey, isBlockedAddress, parseHostPort } from './address-guard.js';
import { createDeadline } from './deadline.js';
import { downloadToFile, type DownloadOptions, type DownloadResult } from './download-to-file.js';
import { openFollowingRedirects } from './follow-redirects.js';
import { systemResolver, type Resolver } from './guarded-lookup.js';
import { OutboundError, toOutboundError } from './outbound-error.js';
import { readBody } from './response-body.js';
import type { ClientContext } from './send-once.js';
import { bareHost, parseTarget, redact } from './target-url.js';
import { tracing } from '../tracing/tracing.js';

export interface OutboundOptions {
  /**
   * `host:port` endpoints exempt from the private-address guard, e.g.
   * `127.0.0.1:4321` or `minio:9000`. Exact pairs only; a redirect from an
   * allowed endpoint to any other private one is still refused. Default: none.
   */
  allow?: string[];
  /** Sent as User-Agent unless a request sets its own. Default: `Podtext/0.1`. */
  userAgent?: string;
  /** Name resolution used at connect time. Default: the system resolver. */
  resolve?: Resolver;
  /**
   * Extra trusted CA certificate(s), PEM, added to Node's bundled roots.
   * Default: none (Node's store, which honours NODE_EXTRA_CA_CERTS).
   */
  ca?: string | Buffer;
}

export interface RequestOptions {
  /** Default: `GET`. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Cap on the decoded response body, in bytes. Default: 10 MB (10 * 1024 * 1024). */
  maxBytes?: number;
  /** Past `maxBytes`, return what fits with `truncated: true` instead of failing. Default: false. */
  truncate?: boolean;
  /** Total time for the whole exchange, redirects and body included, in ms. Default: 30000. */
  timeoutMs?: number;
  /** Longest silence on the socket, in ms. Default: 15000. */
  idleTimeoutMs?: number;
  /** Redirects to follow, each checked again; 0 returns the 3xx itself. Default: 5. */
  maxRedirects?: number;
  /** Refuse http: on the first URL and on every redirect. Default: false. */
  httpsOnly?: boolean;
  signal?: AbortSignal;
  /** Send the active trace's `traceparent` (webhooks: the receiver may join the trace). Default: false. */
  propagateTrace?: boolean;
  /**
   * Answer as soon as the status and headers arrive, the body left unread and
   * the connection closed: for callers that act on the status alone. Default: false.
   */
  headersOnly?: boolean;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The final URL after redirects, without user info. */
  url: string;
  /** Where permanent redirects (301, 308) alone led, when they led anywhere: the address to use from now on. */
  movedTo?: string;
  body: Buffer;
  truncated: boolean;
}

export interface OutboundClient {
  /** Fetches `url` into memory. Any status is returned; only transport failures throw. */
  request(url: string | URL, options?: RequestOptions): Promise<OutboundResponse>;
  /** Streams `url` into `filePath`, resuming after dropped connections. See {@link DownloadOptions}. */
  download(url: string | URL, filePath: string, options: DownloadOptions): Promise<DownloadResult>;
  /**
   * Checks a URL without fetching it (e.g. when a webhook is registered):
   * scheme, and every address its host resolves to now. The connect-time
   * check still runs on each request, since the answer can change.
   */
  checkUrl(url: string | URL, options?: { httpsOnly?: boolean }): Promise<void>;
  /**
   * The same client with `endpoint` (`host:port`) also exempt from the
   * address guard, for an endpoint the operator configured (a speech or model
   * server on a private network), so that it need not be opened to every
   * URL the public gives through OUTBOUND_ALLOW.
   */
  exempting(endpoint: string): OutboundClient;
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

function flattenHeaders(raw: NodeJS.Dict<string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

/**
 * The one guarded HTTP client every outbound request of Podtext goes through
 * (feeds, audio, publisher transcripts, webhooks). Built on node:http/https
 * with a connect-time address check; global fetch would ignore it.
 *
 * @example
 * const client = createOutboundClient({ userAgent: 'Podtext/0.1' });
 * const feed = await client.request('https://example.com/feed.xml', { maxBytes: 5_000_000 });
 */
export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const allowed = new Set((options.allow ?? []).map((entry) => {
    const { host, port } = parseHostPort(entry);
    return `${host}:${port}`;
  }));
  const ctx: ClientContext = {
    resolve: options.resolve ?? systemResolver,
    allowed,
    // Built once: a context with ~140 roots costs tens of milliseconds to make.
    secureContext: options.ca === undefined ? undefined : createSecureContext({ ca: [...rootCertificates, options.ca] }),
  };
  const userAgent = options.userAgent ?? 'Podtext/0.1';

  /** A client span per exchange, redirects included; the URL without user info or query. */
  function traced<T>(method: string, url: string | URL, run: () => Promise<T>, status: (result: T) => number | undefined): Promise<T> {
    const traces = tracing();
    if (!traces.enabled) return run();
    let where: URL | undefined;
    try {
      where = new URL(url);
    } catch {
      // parseTarget reports it inside the span.
    }
    const attributes = { 'http.request.method': method, 'url.full': where && `${where.protocol}//${where.host}${where.pathname}`, 'server.address': where?.hostname, 'server.port': where ? Number(where.port || (where.protocol === 'https:' ? 443 : 80)) : undefined };
    return traces.inSpan(method, { kind: 'client', attributes }, async (span) => {
      const result = await run();
      const code = status(result);
      span.setAttributes({ 'http.response.status_code': code });
      if (code !== undefined && code >= 500) span.fail(`status ${code}`);
      return result;
    });
  }

  function request(url: string | URL, opts: RequestOptions = {}): Promise<OutboundResponse> {
    return traced((opts.method ?? 'GET').toUpperCase(), url, () => send(url, opts), (r) => r.status);
  }

  async function send(url: string | URL, opts: RequestOptions): Promise<OutboundResponse> {
    const start = parseTarget(url, opts.httpsOnly ?? false);
    const deadline = createDeadline(opts.timeoutMs ?? 30_000, redact(start), opts.signal);
    try {
      const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body;
      const headers = {
        'user-agent': userAgent,
        'accept-encoding': 'gzip, deflate, br',
        ...lowerCaseKeys(opts.headers),
      };
      if (opts.propagateTrace) tracing().inject(headers);
      const { open, url: final, permanentUrl } = await openFollowingRedirects(ctx, start, {
        method: (opts.method ?? 'GET').toUpperCase(),
        headers,
        body,
        maxRedirects: opts.maxRedirects ?? 5,
        httpsOnly: opts.httpsOnly ?? false,
        idleTimeoutMs: opts.idleTimeoutMs ?? 15_000,
      }, deadline.signal);
      const where = redact(final);
      if (opts.headersOnly) open.response.destroy();
      const read = opts.headersOnly ? { body: Buffer.alloc(0), truncated: false } : await readBody(open, opts.maxBytes ?? DEFAULT_MAX_BYTES, opts.truncate ?? false, where);
      return {
        status: open.response.statusCode ?? 0,
        headers: flattenHeaders(open.response.headers),
        url: where,
        // Not from a URL with credentials (the new address would not carry them), nor to one:
        // the address a feed moved to is shown to everyone, its user name and password with it.
        ...(permanentUrl.href !== start.href && !start.username && !start.password && !permanentUrl.username && !permanentUrl.password ? { movedTo: permanentUrl.href } : {}),
        body: read.body,
        truncated: read.truncated,
      };
    } finally {
      deadline.dispose();
    }
  }

  async function checkUrl(url: string | URL, opts: { httpsOnly?: boolean } = {}): Promise<void> {
    const target = parseTarget(url, opts.httpsOnly ?? false);
    if (allowed.has(endpointKey(target))) return;
    const host = bareHost(target);
    let addresses: string[];
    try {
      addresses = isIP(host) !== 0 ? [host] : await ctx.resolve(host);
    } catch (err) {
      throw toOutboundError(err, redact(target));
    }
    if (addresses.length === 0) throw new OutboundError('network', `${host} has no addresses`, { url: redact(target) });
    const blocked = addresses.find((address) => isBlockedAddress(address));
    if (blocked !== undefined) {
      throw new OutboundError('blocked_address', `${host} does not resolve to public addresses only`, {
        url: redact(target),
        address: blocked,
      });
    }
  }

  return {
    request,
    checkUrl,
    exempting: (endpoint) => createOutboundClient({ ...options, allow: [...(options.allow ?? []), endpoint] }),
    download: (url, filePath, opts) =>
      traced('GET', url, () =>
        downloadToFile(ctx, url, filePath, {
          ...opts,
          headers: { 'user-agent': userAgent, ...lowerCaseKeys(opts.headers) },
        }), () => undefined),
  };
}
