import type { MiddlewareHandler } from 'hono';
import type { MeterResult } from '../../core/accounts/metering.js';
import { KEYLESS_METER } from '../../core/accounts/gate.js';
import { DomainError } from '../../core/errors.js';
import type { RestEnv } from '../env.js';
import { requestHeader } from '../request-header.js';

/**
 * Admits a call through the core gate and stamps the rate-limit headers on
 * whatever the handler answers, errors included.
 * @param required false for the keyless routes (they count 0).
 */
export function admit(required: boolean): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    let meter = KEYLESS_METER;
    try {
      const result = await c.var.services.gate.admit(
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
    // Set before the handler answers, so the Node adapter can send its response
    // as prepared instead of rebuilding it to add headers.
    c.header('X-RateLimit-Limit', String(meter.limit));
    c.header('X-RateLimit-Remaining', String(Math.max(0, meter.remaining)));
    await next();
  };
}
