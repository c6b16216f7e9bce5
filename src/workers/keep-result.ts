import { setTimeout as sleep } from 'node:timers/promises';
import { databaseTrouble, isDatabaseUnavailable } from '../infra/db/unavailable.js';
import type { Logger } from '../infra/logger.js';

/** First pause between tries while the database is unreachable, in ms; it doubles up to `MAX_PAUSE_MS`. */
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 5_000;

/**
 * Stores a finished task's or chunk's result, trying again while the
 * database is unreachable (a restart, a failover) for up to `withinMs`: the
 * recognition behind it may have taken minutes, and a lost write would send it
 * round again once the lease ran out. Any other error, an abort, or a database
 * still down at the end rejects as before. The write is fenced by the lease,
 * so a late try is refused as stale, never stored twice.
 */
export async function keepResult<T>(write: () => Promise<T>, options: { withinMs: number; signal: AbortSignal; log: Logger }): Promise<T> {
  const giveUpAt = Date.now() + options.withinMs;
  let pause = FIRST_PAUSE_MS;
  let tries = 0;
  for (;;) {
    try {
      const out = await write();
      if (tries > 0) options.log.info({ tries: tries + 1 }, 'result stored once the database answered again');
      return out;
    } catch (err) {
      if (!isDatabaseUnavailable(err) || options.signal.aborted || Date.now() + pause > giveUpAt) throw err;
      if (tries === 0) options.log.warn({ err }, `database ${databaseTrouble(err)}; keeping the result and trying again`);
      tries++;
      await sleep(pause, undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal.aborted) throw err;
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}
