import type { Actor } from '../core/accounts/actor.js';
import type { MeterResult } from '../core/accounts/metering.js';
import type { Services } from '../core/services.js';

/** Per operation: filled by the admission plugin before any resolver runs. */
export interface GraphQLContext {
  services: Services;
  headers: { authorization?: string | null; xApiKey?: string | null };
  actor: Actor | null;
  /** Shared by reference with the HTTP response hook, which stamps the rate-limit headers. */
  metered: { meter: MeterResult | null };
}
