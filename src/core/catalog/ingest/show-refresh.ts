import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import type { Clock } from '../../clock.js';
import { inTransaction } from '../../transaction.js';
import { parseFeed } from '../feed/parse-feed.js';
import type { ParsedFeed } from '../feed/feed-types.js';
import { type FeedFetchLimits, type FeedValidators, fetchFeed } from './fetch-feed.js';
import { type HostLimiter, hostOf } from './host-limiter.js';
import { type RefreshTiming, detailsDue, nextFailedFetch, nextRegularFetch } from './refresh-timing.js';
import { queueTranscriptFetches, refreshEpisodeStats, showDetails, upsertEpisodes } from './store-feed.js';

/** What a refresh needs to know about a show. */
export interface ShowForRefresh {
  id: bigint;
  feedUrl: string;
  title: string;
  etag: string | null;
  lastModified: string | null;
  detailsRefreshedAt: Date | null;
  fetchFailures: number;
  truncated: boolean;
}

/** The outcome of reading one show's feed. */
export interface RefreshResult {
  feedId: bigint;
  /** `updated`: the feed was read (200); `not_modified`: a 304; `failed`: see `error`. */
  status: 'updated' | 'not_modified' | 'failed';
  /** Episodes stored for the first time. */
  newEpisodes: number;
  error?: string;
}

export interface ShowRefresherDeps {
  db: PrismaClient;
  outbound: OutboundClient;
  clock: Clock;
  log: Logger;
  limiter: HostLimiter;
  timing: RefreshTiming;
  limits: FeedFetchLimits;
  /** Most episodes kept from one read, newest first. */
  maxEpisodes: number;
  random: () => number;
}

/**
 * Reads one show's feed (conditionally, under the per-host limit) and stores
 * what changed: new and edited episodes every time, the show's own details
 * when they are due. A 304 only moves the schedule; a failure backs off.
 */
export function createShowRefresher(deps: ShowRefresherDeps) {
  const { db, outbound, clock, log, limiter, timing, limits } = deps;

  /** Stores a parsed feed for `show`; returns how many episodes were new. */
  async function store(show: ShowForRefresh, parsed: ParsedFeed, validators: FeedValidators): Promise<number> {
    const now = clock.now();
    const details = detailsDue(show.detailsRefreshedAt, now, timing) ? showDetails(parsed.show, show.title) : null;
    return inTransaction(db, async (tx) => {
      const added = await upsertEpisodes(tx, show.id, parsed.episodes, now);
      await tx.show.update({
        where: { id: show.id },
        data: {
          ...(details ? { ...details, detailsRefreshedAt: now } : {}),
          etag: validators.etag,
          lastModified: validators.lastModified,
          lastFetchedAt: now,
          nextFetchAt: nextRegularFetch(now, timing, deps.random),
          fetchFailures: 0,
          lastError: null,
          // Once a feed held more than we keep, older episodes are out of reach for good.
          truncated: show.truncated || parsed.truncated,
          updatedAt: now,
        },
      });
      await refreshEpisodeStats(tx, show.id);
      await queueTranscriptFetches(tx, show.id, parsed.episodes, now);
      return added;
    });
  }

  async function notModified(show: ShowForRefresh): Promise<RefreshResult> {
    const now = clock.now();
    await db.show.update({
      where: { id: show.id },
      data: { lastFetchedAt: now, nextFetchAt: nextRegularFetch(now, timing, deps.random), fetchFailures: 0, lastError: null },
    });
    return { feedId: show.id, status: 'not_modified', newEpisodes: 0 };
  }

  async function failed(show: ShowForRefresh, err: unknown): Promise<RefreshResult> {
    const now = clock.now();
    const failures = show.fetchFailures + 1;
    const error = ((err as Error).message ?? String(err)).slice(0, 500);
    log.warn({ feedId: String(show.id), failures, err: error }, 'feed refresh failed');
    await db.show.update({
      where: { id: show.id },
      data: { fetchFailures: failures, lastError: error, nextFetchAt: nextFailedFetch(now, failures, timing, deps.random) },
    });
    return { feedId: show.id, status: 'failed', newEpisodes: 0, error };
  }

  return {
    store,

    /** Reads the feed and records the outcome; never throws for a bad feed. */
    async refresh(show: ShowForRefresh, signal?: AbortSignal): Promise<RefreshResult> {
      let parsed: ParsedFeed;
      let validators: FeedValidators;
      try {
        const fetched = await limiter.run(hostOf(show.feedUrl), () =>
          fetchFeed(outbound, show.feedUrl, { etag: show.etag, lastModified: show.lastModified }, limits, signal),
        );
        if (fetched.kind === 'not_modified') return await notModified(show);
        parsed = parseFeed(fetched.body, { maxItems: deps.maxEpisodes });
        validators = fetched.validators;
      } catch (err) {
        // Stopping is not the feed's fault; the claim's lease brings it back.
        if (signal?.aborted) return { feedId: show.id, status: 'failed', newEpisodes: 0, error: 'stopped' };
        return failed(show, err);
      }
      const newEpisodes = await store(show, parsed, validators);
      if (newEpisodes > 0) log.info({ feedId: String(show.id), newEpisodes }, 'new episodes');
      return { feedId: show.id, status: 'updated', newEpisodes };
    },
  };
}

export type ShowRefresher = ReturnType<typeof createShowRefresher>;
