import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import type { Clock } from '../../clock.js';
import { inTransaction, isUniqueViolation } from '../../transaction.js';
import { parseFeedOffThread } from '../feed/parse-feed-thread.js';
import type { ParsedFeed } from '../feed/feed-types.js';
import { FeedFetchError, type FeedFetchLimits, type FeedValidators, fetchFeed } from './fetch-feed.js';
import { HostBusyError, type HostLimiter, type HostTaskOptions, hostOf } from './host-limiter.js';
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
  /** Told, once committed, of each transcript given a new version (its episode's details changed). */
  onTranscriptStored(transcriptId: string): void;
}

/** Consecutive failures after which a feed that is not there (404, no such host) is given up: about a month of backoff. */
export const GIVE_UP_AFTER_FAILURES = 12;

/** Whether a failed read means the feed is gone for good: a 410 at once, else a missing feed failing for a month. */
function isGone(err: unknown, failures: number): boolean {
  if (!(err instanceof FeedFetchError)) return false;
  return err.status === 410 || (err.reason === 'missing' && failures >= GIVE_UP_AFTER_FAILURES);
}

/**
 * An enclosure's address as clients can use it (`POST /requests` takes it as
 * `url`): a relative one resolved against the feed's address, and none for
 * anything that is not http(s) (ftp:, an empty attribute).
 */
export function audioAddress(raw: string | null, feedUrl: string): string | null {
  if (!raw?.trim()) return null;
  try {
    const url = new URL(raw.trim(), feedUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Reads one show's feed (conditionally, under the per-host limit) and stores
 * what changed: new and edited episodes every time, the show's own details
 * when they are due. A 304 only moves the schedule; a failure backs off, and
 * a feed that is gone is marked dead (no longer read or found by search). A
 * feed that moved permanently (301/308) is read from its new address after;
 * one that moved onto another show's feed is not stored (a failed read).
 */
export function createShowRefresher(deps: ShowRefresherDeps) {
  const { db, outbound, clock, log, limiter, timing, limits } = deps;

  /** Stores a parsed feed for `show`; returns how many episodes were new. */
  async function store(show: ShowForRefresh, parsed: ParsedFeed, validators: FeedValidators): Promise<number> {
    const now = clock.now();
    const details = detailsDue(show.detailsRefreshedAt, now, timing) ? showDetails(parsed.show, show.title) : null;
    const episodes = await inTransaction(db, async (tx) => {
      const upserted = await upsertEpisodes(tx, show.id, parsed.episodes.map((e) => ({ ...e, audioUrl: audioAddress(e.audioUrl, show.feedUrl) })), now, parsed.show.language);
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
      await queueTranscriptFetches(tx, show.id, parsed.episodes, now, parsed.show.language);
      return upserted;
    });
    for (const transcriptId of episodes.transcriptsChanged) deps.onTranscriptStored(transcriptId);
    return episodes.inserted;
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
    const dead = isGone(err, failures);
    log.warn({ feedId: String(show.id), failures, dead, err: error }, dead ? 'feed is gone; no longer read' : 'feed refresh failed');
    await db.show.update({
      where: { id: show.id },
      data: { fetchFailures: failures, lastError: error, ...(dead ? { dead: true, indexed: false, nextFetchAt: null } : { nextFetchAt: nextFailedFetch(now, failures, timing, deps.random) }) },
    });
    return { feedId: show.id, status: 'failed', newEpisodes: 0, error };
  }

  /**
   * Takes the address a feed moved to for good. Another show already holding
   * it keeps it (a duplicate for a directory import to settle); this one
   * stays as it was.
   * @returns the show holding the address instead, if one does.
   */
  async function moved(show: ShowForRefresh, to: string): Promise<bigint | null> {
    try {
      await db.show.update({ where: { id: show.id }, data: { feedUrl: to } });
      log.info({ feedId: String(show.id), from: show.feedUrl, to }, 'feed moved permanently');
      return null;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      log.warn({ feedId: String(show.id), to }, 'feed moved to an address another show holds');
      return (await db.show.findUnique({ where: { feedUrl: to }, select: { id: true } }))?.id ?? null;
    }
  }

  return {
    store,

    /** Reads the feed and records the outcome; never throws for a bad feed. */
    async refresh(show: ShowForRefresh, signal?: AbortSignal, queueing?: HostTaskOptions): Promise<RefreshResult> {
      let parsed: ParsedFeed;
      let validators: FeedValidators;
      try {
        const fetched = await limiter.run(hostOf(show.feedUrl), () =>
          fetchFeed(outbound, show.feedUrl, { etag: show.etag, lastModified: show.lastModified }, limits, signal),
          queueing,
        );
        const holder = fetched.movedTo ? await moved(show, fetched.movedTo) : null;
        // That feed is the other show's now: storing it here too would split its new episodes
        // between the two shows and, with the daily details, give this one the other's name.
        // Missing here, then: given up after a month, as a feed that is not there.
        if (holder !== null) throw new FeedFetchError(`moved permanently to the feed of show ${holder}`, 'missing');
        if (fetched.kind === 'not_modified') return await notModified(show);
        parsed = await parseFeedOffThread(fetched.body, { maxItems: deps.maxEpisodes, charset: fetched.charset });
        validators = fetched.validators;
      } catch (err) {
        // Stopping is not the feed's fault; the claim's lease brings it back.
        if (signal?.aborted) return { feedId: show.id, status: 'failed', newEpisodes: 0, error: 'stopped' };
        // Not read at all (its host busy with other reads): no failure of the feed's, no backoff.
        if (err instanceof HostBusyError) return { feedId: show.id, status: 'failed', newEpisodes: 0, error: err.message };
        return failed(show, err);
      }
      const newEpisodes = await store(show, parsed, validators);
      if (newEpisodes > 0) log.info({ feedId: String(show.id), newEpisodes }, 'new episodes');
      return { feedId: show.id, status: 'updated', newEpisodes };
    },
  };
}

export type ShowRefresher = ReturnType<typeof createShowRefresher>;
