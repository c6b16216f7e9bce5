import type { Actor } from '../core/accounts/actor.js';
import type { Admission } from '../core/door/door.js';
import type { OperationName } from '../core/door/operations.js';
import type { Services } from '../core/services.js';
import type { Logger } from '../infra/logger.js';

/** What every REST handler can read from its context. */
export interface RestEnv {
  Variables: {
    services: Services;
    log: Logger;
    /** The operation the door matched (`unknownCall` for unknown paths and methods). */
    operation: OperationName;
    /** What the door decided: caller, meter and rate-limit headers. */
    admission: Admission;
    /** The caller; set by the door whenever a valid key came with the call. */
    actor: Actor;
  };
}
