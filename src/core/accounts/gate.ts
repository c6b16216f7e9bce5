import { DomainError } from '../errors.js';
import { plans } from '../pricing.js';
import type { Actor } from './actor.js';
import { keyFromHeaders } from './credentials.js';
import type { KeyService } from './key-service.js';
import type { MeterResult, Metering } from './metering.js';

/** What a keyless call reports in the rate-limit headers: it is not metered. */
export const KEYLESS_METER: MeterResult = { allowed: true, limit: plans.free.dailyRequests, remaining: plans.free.dailyRequests };

export interface GateResult {
  actor: Actor | null;
  meter: MeterResult;
}

/**
 * The one admission rule for both adapters: find the caller by key, then count
 * `cost` requests against its daily allowance.
 * @param required whether the call needs a key. Calls without a key count 0;
 *   a call that sends a key counts `cost` (REST keyless routes pass 0).
 */
export function createGate(keys: KeyService, metering: Metering) {
  return {
    async admit(headers: { authorization?: string | null; xApiKey?: string | null }, cost: number, required: boolean): Promise<GateResult> {
      const key = keyFromHeaders(headers.authorization, headers.xApiKey);
      if (!key) {
        if (required) throw new DomainError('unauthorized', 'This call needs an API key: "Authorization: Bearer <key>" or "X-Api-Key: <key>".');
        return { actor: null, meter: KEYLESS_METER };
      }
      const actor = await keys.authenticate(key);
      if (cost === 0) return { actor, meter: KEYLESS_METER };
      const meter = await metering.take(actor, cost);
      if (!meter.allowed) {
        throw new DomainError('rate_limited', `The daily allowance of ${meter.limit} requests is spent; it resets at 00:00 UTC.`, { meter });
      }
      return { actor, meter };
    },
  };
}

export type Gate = ReturnType<typeof createGate>;
