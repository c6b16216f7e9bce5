import type { Actor } from '../core/accounts/actor.js';
import type { RateLimitHeaders } from '../core/door/door.js';
import type { Services } from '../core/services.js';

/** Per operation: filled from what the door admitted before any resolver runs. */
export interface GraphQLContext {
  services: Services;
  actor: Actor | null;
  /** The rate-limit figures after this operation, for transports without headers. */
  rateLimit: RateLimitHeaders;
}
