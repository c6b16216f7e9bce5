import type { Context, MiddlewareHandler } from 'hono';
import type { MeterResult } from '../../core/accounts/metering.js';
import { KEYLESS_METER } from '../../core/accounts/gate.js';
import { DomainError } from '../../core/errors.js';
import type { RestEnv } from '../env.js';
import { requestHeader } from '../request-header.js';

/** The rate-limit headers for `meter`, as a plain object a handler can answer with. */
export function rateLimitHeaders(meter: MeterResult): { 'x-ratelimit-limit': string; 'x-ratelimit-remaining': string } {
  return { 'x-ratelimit-limit': String(meter.limit), 'x-ratelimit-remaining': String(Math.max(0, meter.remaining)) };
}

function stamp(c: Context, meter: MeterResult): void {
  c.header('X-RateLimit-Limit', String(meter.limit));
  c.header('X-RateLimit-Remaining', String(Math.max(0, meter.remaining)));
}

/**
 * Admits a call through the core gate and stamps the rate-limit headers on
 * whatever the handler answers, errors included. The meter is left in
 * `c.var.meter`.
 * @param required false for the keyless routes (they count 0).
 * @param options.handlerSetsHeaders the handler's own answer carries
 *   {@link rateLimitHeaders}, so they are stamped here only on an error
 *   answer: a handler answering with plain headers lets the Node adapter
 *   write its response without building a Fetch `Headers` object.
 */
export function admit(required: boolean, options: { handlerSetsHeaders?: boolean } = {}): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    let meter = KEYLESS_METER;
    try {
      const result = await c.get('services').gate.admit(
        { authorization: requestHeader(c, 'authorization'), xApiKey: requestHeader(c, 'x-api-key') },
        required ? 1 : 0,
        required,
      );
      meter = result.meter;
      if (result.actor) c.set('actor', result.actor);
      c.set('optionalActor', result.actor);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'rate_limited') meter = err.details?.meter as MeterResult;
      c.header('X-RateLimit-Limit', String(meter.limit));
      c.header('X-RateLimit-Remaining', String(meter.remaining));
      throw err;
    }
    c.set('meter', meter);
    if (options.handlerSetsHeaders) {
      try {
        await next();
      } catch (err) {
        // Called directly rather than through Hono's chain: the error answer is made above.
        stamp(c, meter);
        throw err;
      }
      // Hono's chain turned a thrown error into an answer already.
      if (c.error) stamp(c, meter);
      return;
    }
    // Set before the handler answers, so the Node adapter can send its response
    // as prepared instead of rebuilding it to add headers.
    stamp(c, meter);
    await next();
  };
}
