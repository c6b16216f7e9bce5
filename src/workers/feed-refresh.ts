import { setTimeout as sleep } from 'node:timers/promises';
import type { CatalogIngest } from '../core/catalog/ingest/catalog-ingest.js';
import type { Logger } from '../infra/logger.js';

export interface FeedRefreshOptions {
  /** Pause between passes when the last pass found less than a full batch, in ms. Default: 60000. */
  everyMs?: number;
  /** Shows claimed per pass. Default: 100. */
  batch?: number;
  log?: Logger;
}

/**
 * Refreshes due feeds until `signal` aborts: one pass of `refreshDue`, then
 * straight on while passes come back full (a backlog), else a pause of
 * `everyMs`. Errors are logged and the loop carries on. Resolves once the
 * pass in flight has wound down after the abort.
 */
export async function runFeedRefresh(
  ingest: Pick<CatalogIngest, 'refreshDue'>,
  signal: AbortSignal,
  options: FeedRefreshOptions = {},
): Promise<void> {
  const everyMs = options.everyMs ?? 60_000;
  const batch = options.batch ?? 100;
  while (!signal.aborted) {
    let full = false;
    try {
      const summary = await ingest.refreshDue(batch, signal);
      full = summary.shows >= batch;
      if (summary.shows > 0) options.log?.info(summary, 'feeds refreshed');
    } catch (err) {
      if (!signal.aborted) options.log?.error({ err }, 'feed refresh pass failed');
    }
    if (full || signal.aborted) continue;
    await sleep(everyMs, undefined, { signal }).catch(() => undefined);
  }
}
