import type { Logger } from '../logger.js';
import { databaseTrouble, isDatabaseUnavailable } from './unavailable.js';

/** How often a loop repeats that the database is unreachable, in ms: once a minute. */
const OUTAGE_REPEAT_MS = 60_000;

/**
 * Logs a background loop's failed pass. A database that cannot be reached is
 * said as a warning once a minute, not as an error at every tick of every
 * loop until it is back; anything else is an error each time.
 */
export function loopFailures(log: Logger, what: string): (err: unknown) => void {
  let saidAt = Number.NEGATIVE_INFINITY;
  return (err) => {
    if (!isDatabaseUnavailable(err)) {
      log.error({ err }, what);
      return;
    }
    if (Date.now() - saidAt < OUTAGE_REPEAT_MS) return;
    saidAt = Date.now();
    log.warn({ err }, `${what}: the database is ${databaseTrouble(err)}; trying again`);
  };
}
