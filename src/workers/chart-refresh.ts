import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from '../generated/prisma/client.js';
import { type ChartSources, chartsFetchedAt, refreshCharts } from '../core/catalog/imports/chart-import.js';
import type { Clock } from '../core/clock.js';
import type { OutboundClient } from '../infra/outbound/outbound-client.js';
import type { Logger } from '../infra/logger.js';

export interface ChartRefreshDeps {
  db: PrismaClient;
  outbound: OutboundClient;
  clock: Clock;
  log: Logger;
  sources: ChartSources;
}

export interface ChartRefreshOptions {
  /** Charts older than this are imported again. Default: 1 day. */
  everyMs?: number;
  /** Wait after a pass that could not reach Apple. Default: 1 hour. */
  retryMs?: number;
  /** Longest single wait, so a changed clock is noticed. Default: 10 minutes. */
  pollMs?: number;
}

/**
 * Imports Apple's charts once a day until `signal` aborts. The age of the
 * stored overall chart decides, so a restart does not fetch again and
 * several worker processes rarely do the same pass.
 */
export async function runChartRefresh(deps: ChartRefreshDeps, signal: AbortSignal, options: ChartRefreshOptions = {}): Promise<void> {
  const { db, outbound, clock, log, sources } = deps;
  const everyMs = options.everyMs ?? 86_400_000;
  const retryMs = options.retryMs ?? 3_600_000;
  const pollMs = options.pollMs ?? 600_000;
  let retryAt = 0;
  while (!signal.aborted) {
    let waitMs = pollMs;
    try {
      const fetchedAt = await chartsFetchedAt(db);
      const dueAt = Math.max(fetchedAt ? fetchedAt.getTime() + everyMs : 0, retryAt);
      if (clock.now().getTime() >= dueAt) {
        try {
          const result = await refreshCharts(db, outbound, sources, { clock });
          log.info({ imported: result.imported.length, failed: result.failed }, 'charts imported');
        } catch (err) {
          retryAt = clock.now().getTime() + retryMs;
          log.warn({ err: (err as Error).message }, 'charts could not be imported; retrying later');
        }
      } else {
        waitMs = Math.min(pollMs, dueAt - clock.now().getTime());
      }
    } catch (err) {
      if (!signal.aborted) log.error({ err }, 'chart refresh pass failed');
    }
    await sleep(waitMs, undefined, { signal }).catch(() => undefined);
  }
}
