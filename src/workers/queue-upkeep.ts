import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from '../generated/prisma/client.js';
import { pruneFinished } from '../core/jobs/queue-upkeep.js';
import type { Logger } from '../infra/logger.js';

/** Between prunes, in ms: hourly. The first runs a minute after start, off the start-up path. */
const EVERY_MS = 3600_000;
const FIRST_MS = 60_000;

/**
 * Prunes finished tasks, delivered webhooks and finished mails older than `retentionDays`
 * until `signal` aborts. Several processes may run it at once: the deletes
 * are idempotent.
 */
export async function runQueueUpkeep(deps: { db: PrismaClient; log: Logger; retentionDays: number }, signal: AbortSignal): Promise<void> {
  let wait = FIRST_MS;
  while (!signal.aborted) {
    const slept = await sleep(wait, true, { signal }).catch(() => false);
    if (!slept) return;
    wait = EVERY_MS;
    try {
      const pruned = await pruneFinished(deps.db, deps.retentionDays);
      if (Object.values(pruned).some((n) => n > 0)) deps.log.info({ ...pruned, retentionDays: deps.retentionDays }, 'pruned finished queue rows');
    } catch (err) {
      if (!signal.aborted) deps.log.error({ err }, 'queue upkeep failed');
    }
  }
}
