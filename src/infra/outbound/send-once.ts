import type { SecureContext } from 'node:tls';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { endpointKey, isBlockedAddress } from './address-guard.js';
import { createGuardedLookup, type Resolver } from './guarded-lookup.js';
import { OutboundError, toOutboundError } from './outbound-error.js';
import { bareHost, redact } from './target-url.js';

/** What every exchange of one client shares. */
export interface ClientContext {
  resolve: Resolver;
  /** Normalised `host:port` keys exempt from the address guard. */
  allowed: ReadonlySet<string>;
  /** Trusted roots for https; undefined means Node's default store. */
  secureContext?: SecureContext;
}

export interface Exchange {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Milliseconds without socket activity before giving up. */
  idleTimeoutMs: number;
}

/** A response whose body has not been read yet. */
export interface OpenResponse {
  response: IncomingMessage;
  /** Stops the exchange; `err` is what any reader of the body will see. */
  fail(err: OutboundError): void;
  /** The reason recorded by `fail`, when this side stopped the exchange. */
  failure(): OutboundError | undefined;
}

/**
 * One HTTP exchange, no redirects. The address is checked twice over: IP
 * literals here (node:net never calls `lookup` for them), names inside the
 * socket's own `lookup`, against the addresses it then connects to.
 */
export function sendOnce(ctx: ClientContext, url: URL, exchange: Exchange, signal: AbortSignal): Promise<OpenResponse> {
  const where = redact(url);
  const allowed = ctx.allowed.has(endpointKey(url));
  const host = bareHost(url);
  if (!allowed && isIP(host) !== 0 && isBlockedAddress(host)) {
    return Promise.reject(
      new OutboundError('blocked_address', `${host} is not a public address`, { url: where, address: host }),
    );
  }
  if (signal.aborted) return Promise.reject(signal.reason);

  return new Promise((resolve, reject) => {
    let failure: OutboundError | undefined;
    let response: IncomingMessage | undefined;
    const isHttps = url.protocol === 'https:';
    const options: https.RequestOptions = {
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: exchange.method,
      headers: exchange.headers,
      // A fresh connection per exchange: a pooled socket would skip the check.
      agent: false,
      lookup: createGuardedLookup(ctx.resolve, !allowed),
      ...(isHttps && ctx.secureContext ? { secureContext: ctx.secureContext } : {}),
    };
    const req = (isHttps ? https : http).request(options);
    const fail = (err: OutboundError): void => {
      failure ??= err;
      req.destroy(failure);
      response?.destroy(failure);
    };
    const onAbort = (): void => fail(signal.reason as OutboundError);
    signal.addEventListener('abort', onAbort, { once: true });
    req.setTimeout(exchange.idleTimeoutMs, () => {
      fail(new OutboundError('timeout', `no data for ${exchange.idleTimeoutMs} ms`, { url: where }));
    });
    req.on('close', () => signal.removeEventListener('abort', onAbort));
    req.on('error', (err) => {
      if (response) return;
      const cause = failure ?? toOutboundError(err, where);
      reject(cause.details.url ? cause : new OutboundError(cause.code, cause.message, { ...cause.details, url: where }));
    });
    req.on('response', (res) => {
      response = res;
      // Readers see failures through iteration; this keeps a failure that lands
      // while nobody is reading (e.g. while a file opens) from crashing the process.
      res.on('error', () => {});
      resolve({ response: res, fail, failure: () => failure });
    });
    req.end(exchange.body);
  });
}
