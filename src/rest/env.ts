import type { Actor } from '../core/accounts/actor.js';
import type { MeterResult } from '../core/accounts/metering.js';
import type { Services } from '../core/services.js';
import type { Logger } from '../infra/logger.js';

/** What every REST handler can read from its context. */
export interface RestEnv {
  Variables: {
    services: Services;
    log: Logger;
    actor: Actor;
    /** Set for keyless routes when a valid key was sent anyway. */
    optionalActor: Actor | null;
    /** The caller's daily allowance after this call, set by `admit`. */
    meter: MeterResult;
  };
}
