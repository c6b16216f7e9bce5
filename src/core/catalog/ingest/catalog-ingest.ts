import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import type { Clock } from '../../clock.js';
import { DomainError, invalid, notFound } from '../../errors.js';
import { isUniqueViolation } from '../../transaction.js';
import { REQUESTED_SHOW_ID } from '../../jobs/resolve-episodes.js';
import { feedUrlVariants } from '../discovery/show-finders.js';
import { FeedParseError } from '../feed/feed-parse-error.js';
import type { ParsedFeed } from '../feed/feed-types.js';
import { parseFeedOffThread } from '../feed/parse-feed-thread.js';
import { lookupApple } from '../imports/apple-lookup.js';
import type { PodcastIndexClient } from '../imports/podcastindex-client.js';
import { allocateFeedId } from './feed-id.js';
import { defaultFeedFetchLimits, type FeedFetchLimits, FeedFetchError, fetchFeed } from './fetch-feed.js';
import { createHostLimiter, hostOf, mapWithConcurrency } from './host-limiter.js';
import { createTranscriptFetcher, defaultTranscriptFetchOptions, type TranscriptFetchOptions } from './publisher-transcripts.js';
import { defaultRefreshTiming, type RefreshTiming } from './refresh-timing.js';
import { createShowRefresher, type RefreshResult, type ShowForRefresh } from './show-refresh.js';
import { searchKey } from './search-key.js';

export type { RefreshResult } from './show-refresh.js';

/** Tuning of feed ingestion; every field is optional. */
export interface CatalogIngestOptions extends RefreshTiming, FeedFetchLimits, TranscriptFetchOptions {
  /** Feed downloads at once to one host (transcripts count too). Default: 2. */
  perHostConcurrency: number;
  /** Shows refreshed at once by `refreshDue`. Default: 8. */
  refreshConcurrency: number;
  /** Most episodes stored from one read of a feed, newest first. Default: 1000. */
  maxEpisodes: number;
  /** Publisher transcripts fetched right away when a feed is added or refreshed; the rest wait for `refreshDue`. Default: 25. */
  transcriptsPerIngest: number;
  /**
   * Longest those are waited for, in ms: a search by feed URL or a first
   * episode list waits on them, and a slow transcript host must not hold it
   * for minutes. Those not fetched by then are handed back for `refreshDue`.
   * Default: 10000.
   */
  transcriptWaitMs: number;
  /** Publisher transcripts fetched per `refreshDue` call, across shows. Default: 50. */
  transcriptsPerTick: number;
  /** How long a show claimed by `refreshDue` stays reserved, in ms. Default: 900000 (15 min). */
  refreshLeaseMs: number;
  /** Apple's lookup API root. Default: `https://itunes.apple.com`. */
  appleLookupUrl: string;
}

export interface CatalogIngestDeps {
  db: PrismaClient;
  outbound: OutboundClient;
  clock: Clock;
  log: Logger;
  /** When set, new feeds take their Podcast Index id. */
  podcastIndex?: PodcastIndexClient;
  options?: Partial<CatalogIngestOptions>;
  /** Source of jitter, [0, 1). Default: Math.random. */
  random?: () => number;
  /** Announces a transcript given a new version, once committed (`TranscriptService.stored`). */
  onTranscriptStored(transcriptId: string): void;
}

/** What `refreshDue` did. */
export interface RefreshSummary {
  shows: number;
  updated: number;
  notModified: number;
  failed: number;
  newEpisodes: number;
  transcriptsStored: number;
}

const SHOW_FOR_REFRESH = {
  id: true, feedUrl: true, title: true, etag: true, lastModified: true, detailsRefreshedAt: true, fetchFailures: true, truncated: true,
} as const;

type ClaimedRow = {
  id: bigint; feed_url: string; title: string; etag: string | null; last_modified: string | null;
  details_refreshed_at: Date | null; fetch_failures: number; truncated: boolean;
};

/** A feed URL as stored: http(s), no credentials, no fragment; refused (`invalid_request` on `url`) otherwise. */
export function normaliseFeedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', 'only http and https feeds can be added');
  // Feed URLs are shown to every key: credentials in them would be too.
  if (url.username || url.password) throw invalid('url', 'a feed URL with a user name or password (user:pass@) cannot be added: feed URLs are shown to everyone');
  url.hash = '';
  return url.href;
}

/**
 * What a caller is told when a feed cannot be fetched. Refused addresses and
 * names that do not resolve get one answer, with neither the address a name
 * resolved to nor the resolver's error: otherwise search-by-URL would be a
 * way to read this server's DNS and network from outside.
 */
/** A read someone is waiting on: ahead of background reads of the host, and not queued for longer than this. */
const USER_READ = { urgent: true, maxWaitMs: 20_000 };

function feedFetchProblem(err: unknown, maxFeedBytes: number): DomainError {
  if (err instanceof DomainError) return err;
  if (!(err instanceof FeedFetchError)) return new DomainError('upstream_failed', 'url: the feed server could not be reached');
  if (err.status !== undefined) {
    return err.reason === 'missing'
      ? invalid('url', `no feed there (the feed server answered ${err.status})`)
      : new DomainError('upstream_failed', `url: the feed server did not answer properly (it answered ${err.status})`);
  }
  if (err.reason === 'refused' || err.reason === 'missing') return invalid('url', 'this address cannot be fetched');
  // The server answered, but with more than a feed may hold (an endless stream, a compression bomb).
  if (/^too_large:/.test(err.message)) return invalid('url', `the feed is larger than ${Math.round(maxFeedBytes / 1_048_576)} MB, more than Podtext reads`);
  if (/^too_many_redirects:/.test(err.message)) return invalid('url', 'the address redirects too many times');
  if (/^timeout:/.test(err.message)) return new DomainError('upstream_failed', 'url: the feed server did not answer in time');
  return new DomainError('upstream_failed', 'url: the feed server could not be reached');
}

/**
 * Adds podcast feeds to the catalog and keeps them fresh: episode lists
 * hourly, show details daily (both jittered), conditional GETs, exponential
 * backoff for failing feeds, at most `perHostConcurrency` downloads per host,
 * publisher transcripts fetched and stored. Every request goes through the
 * guarded outbound client.
 *
 * Feed ids: the Podcast Index id when known (a show already stored under that
 * feed URL, or the Podcast Index API when configured); otherwise an id from
 * Podtext's own range, which starts at 10^12 (see `OWN_FEED_ID_START`).
 */
export function createCatalogIngest(deps: CatalogIngestDeps) {
  const { db, outbound, clock, log } = deps;
  const opts: CatalogIngestOptions = {
    ...defaultRefreshTiming,
    ...defaultFeedFetchLimits,
    perHostConcurrency: 2,
    refreshConcurrency: 8,
    maxEpisodes: 1000,
    transcriptsPerIngest: 25,
    transcriptWaitMs: 10_000,
    transcriptsPerTick: 50,
    refreshLeaseMs: 900_000,
    appleLookupUrl: 'https://itunes.apple.com',
    ...defaultTranscriptFetchOptions,
    ...deps.options,
  };
  const random = deps.random ?? Math.random;
  const limiter = createHostLimiter(opts.perHostConcurrency);
  const transcripts = createTranscriptFetcher({ db, outbound, clock, log, limiter, options: opts });
  const refresher = createShowRefresher({ db, outbound, clock, log, limiter, timing: opts, limits: opts, maxEpisodes: opts.maxEpisodes, random, onTranscriptStored: deps.onTranscriptStored });

  async function podcastIndexMatch(feedUrl: string): Promise<{ id: bigint; appleId: bigint | null } | null> {
    if (!deps.podcastIndex) return null;
    try {
      const feed = await deps.podcastIndex.byFeedUrl(feedUrl);
      return feed ? { id: BigInt(feed.id), appleId: feed.itunesId ? BigInt(feed.itunesId) : null } : null;
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'Podcast Index lookup failed; using an id of our own');
      return null;
    }
  }

  async function freeAppleId(appleId: bigint | null | undefined): Promise<bigint | null> {
    if (!appleId) return null;
    return (await db.show.findUnique({ where: { appleId }, select: { id: true } })) ? null : appleId;
  }

  /** A feed's first publisher transcripts, for at most `transcriptWaitMs` (or until `signal`). */
  async function fetchFirstTranscripts(showId: bigint, signal?: AbortSignal): Promise<void> {
    const wait = new AbortController();
    const timer = setTimeout(() => wait.abort(), opts.transcriptWaitMs);
    const stop = () => wait.abort();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      await transcripts.fetchDue({ showId, limit: opts.transcriptsPerIngest, signal: wait.signal });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }

  async function refreshById(feedId: bigint, signal?: AbortSignal): Promise<RefreshResult> {
    const show = await db.show.findUnique({ where: { id: feedId }, select: SHOW_FOR_REFRESH });
    if (!show) throw notFound('feed_id', `no show ${feedId}`);
    if (!show.feedUrl) return { feedId, status: 'failed', newEpisodes: 0, error: 'the show has no feed URL' };
    const result = await refresher.refresh(show as ShowForRefresh, signal, USER_READ);
    if (result.status !== 'failed') await fetchFirstTranscripts(feedId, signal);
    return result;
  }

  /**
   * The show already holding one of `urls` as its feed: as given, as the URL
   * parser tidied it, or spelled with the other protocol or trailing slash
   * (as lookup matches), so a directory show not read yet is found instead
   * of a second show taking its episodes.
   */
  async function knownShow(urls: string[], extra: { appleId?: bigint }) {
    // Directory imports store URLs as published, which the URL parser may have tidied (case, default port).
    const known = await db.show.findFirst({
      where: { feedUrl: { in: [...new Set(urls.flatMap((u) => [normaliseFeedUrl(u), u.trim(), ...feedUrlVariants(u)]))] } },
      select: { id: true, lastFetchedAt: true, appleId: true },
    });
    if (!known) return null;
    // Shows known only from a directory import get their episodes on first request.
    if (!known.lastFetchedAt) await refreshById(known.id);
    if (!known.appleId && (await freeAppleId(extra.appleId))) await db.show.update({ where: { id: known.id }, data: { appleId: extra.appleId } });
    return { feedId: known.id, created: false };
  }

  /**
   * The show already in the catalog that a feed read at a new address is: one
   * show holds at least half of its episodes (a mirror, a link with tracking
   * parameters, a host that moved without a redirect). An episode belongs to
   * one show only, so a second show for the same feed would stay empty. Episodes
   * added by request do not count: they move to the first feed that lists them.
   */
  async function sameShowElsewhere(parsed: ParsedFeed): Promise<bigint | null> {
    const ids = [...new Set(parsed.episodes.map((e) => e.transcriptId))];
    if (ids.length === 0) return null;
    const [top] = await db.episode.groupBy({
      by: ['showId'],
      where: { transcriptId: { in: ids }, showId: { not: REQUESTED_SHOW_ID } },
      _count: { _all: true },
      orderBy: { _count: { showId: 'desc' } },
      take: 1,
    });
    return top && top._count._all * 2 >= ids.length ? top.showId : null;
  }

  async function addFeedByUrl(url: string, extra: { appleId?: bigint } = {}): Promise<{ feedId: bigint; created: boolean }> {
    const asked = await knownShow([url], extra);
    if (asked) return asked;

    let fetched;
    try {
      fetched = await limiter.run(hostOf(normaliseFeedUrl(url)), () => fetchFeed(outbound, normaliseFeedUrl(url), null, opts), USER_READ);
    } catch (err) {
      throw feedFetchProblem(err, opts.maxFeedBytes);
    }
    if (fetched.kind !== 'ok') throw new DomainError('upstream_failed', 'url: the feed server answered 304 to an unconditional request');
    // A feed that moved permanently (301/308) is the show at its new address: found there, or added there.
    if (fetched.movedTo) {
      const there = await knownShow([fetched.movedTo], extra);
      if (there) return there;
    }
    const feedUrl = normaliseFeedUrl(fetched.movedTo ?? url);
    let parsed;
    try {
      parsed = await parseFeedOffThread(fetched.body, { maxItems: opts.maxEpisodes, charset: fetched.charset });
    } catch (err) {
      if (err instanceof FeedParseError) throw invalid('url', `not a podcast feed: ${err.message}`);
      throw err;
    }

    const match = await podcastIndexMatch(feedUrl);
    const now = clock.now();
    let created = false;
    let feedId: bigint;
    const stored = match ? await db.show.findUnique({ where: { id: match.id }, select: { id: true, feedUrl: true } }) : null;
    if (stored) {
      feedId = stored.id;
      if (!stored.feedUrl) await db.show.update({ where: { id: feedId }, data: { feedUrl } });
    } else {
      const same = match ? null : await sameShowElsewhere(parsed);
      if (same !== null) {
        log.info({ feedId: String(same), url: feedUrl }, 'feed is a show already in the catalog, read at another address');
        return { feedId: same, created: false };
      }
      feedId = match?.id ?? (await allocateFeedId(db));
      const title = parsed.show.title.trim() || new URL(feedUrl).hostname;
      const key = searchKey(title);
      try {
        await db.show.create({
          data: {
            id: feedId, title, feedUrl, appleId: await freeAppleId(extra.appleId ?? match?.appleId),
            indexed: true, source: 'feed', searchName: key.name, searchCompact: key.compact, createdAt: now, updatedAt: now,
          },
        });
        created = true;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // Someone added the same feed a moment ago.
        const winner = await db.show.findUnique({ where: { feedUrl }, select: { id: true } });
        if (!winner) throw err;
        return { feedId: winner.id, created: false };
      }
    }
    const show = (await db.show.findUniqueOrThrow({ where: { id: feedId }, select: SHOW_FOR_REFRESH })) as ShowForRefresh;
    await refresher.store(show, parsed, fetched.validators);
    await fetchFirstTranscripts(feedId);
    log.info({ feedId: String(feedId), created, episodes: parsed.episodes.length }, 'feed added');
    return { feedId, created };
  }

  return {
    /**
     * Adds a feed by URL, or finds it when it is already in the catalog.
     * @throws DomainError `invalid_request` for a URL that is refused (private
     *   address, bad scheme), leads nowhere (unknown host, 4xx) or is not a
     *   podcast feed; `upstream_failed` when the feed's server fails (5xx,
     *   timeout, dropped connection): worth trying again later.
     */
    addFeedByUrl: (url: string) => addFeedByUrl(url),

    /**
     * Adds the show Apple lists under `appleId`: its feed URL from the Podcast
     * Index when configured, else from Apple's lookup API.
     * @throws DomainError `not_found` when neither knows a feed for it.
     */
    async addFeedByAppleId(appleId: bigint): Promise<{ feedId: bigint; created: boolean }> {
      const known = await db.show.findUnique({ where: { appleId }, select: { id: true } });
      if (known) return { feedId: known.id, created: false };
      let feedUrl: string | null = null;
      if (deps.podcastIndex) {
        feedUrl = (await deps.podcastIndex.byItunesId(appleId).catch(() => null))?.url ?? null;
      }
      if (!feedUrl) {
        try {
          feedUrl = (await lookupApple(outbound, appleId, { baseUrl: opts.appleLookupUrl }))?.feedUrl ?? null;
        } catch (err) {
          // The detail (a resolver's error, say) is for the log: answers never describe this server's network.
          log.warn({ appleId: String(appleId), err: (err as Error).message }, 'Apple lookup failed');
          throw new DomainError('upstream_failed', 'apple_id: the directory lookup failed; try again later', { field: 'apple_id' });
        }
      }
      if (!feedUrl) throw notFound('apple_id', `no podcast feed known for ${appleId}`);
      return addFeedByUrl(feedUrl, { appleId });
    },

    /**
     * Reads one show's feed now, whatever its schedule.
     * @throws DomainError `not_found` for an unknown feed id.
     */
    refreshShow: (feedId: bigint, signal?: AbortSignal) => refreshById(feedId, signal),

    /**
     * Refreshes up to `limit` shows whose `next_fetch_at` has come, then
     * fetches due publisher transcripts. Safe to run in several processes:
     * shows are claimed with SKIP LOCKED and a lease.
     */
    async refreshDue(limit = 100, signal?: AbortSignal): Promise<RefreshSummary> {
      const now = clock.now();
      const claimed = await db.$queryRawUnsafe<ClaimedRow[]>(
        `UPDATE shows SET next_fetch_at = $2
         WHERE id IN (SELECT id FROM shows WHERE indexed AND NOT dead AND feed_url IS NOT NULL AND next_fetch_at <= $1
                      ORDER BY next_fetch_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, feed_url, title, etag, last_modified, details_refreshed_at, fetch_failures, truncated`,
        now,
        new Date(now.getTime() + opts.refreshLeaseMs),
        limit,
      );
      const results = await mapWithConcurrency(claimed, opts.refreshConcurrency, (r) =>
        refresher.refresh(
          {
            id: BigInt(r.id), feedUrl: r.feed_url, title: r.title, etag: r.etag, lastModified: r.last_modified,
            detailsRefreshedAt: r.details_refreshed_at, fetchFailures: r.fetch_failures, truncated: r.truncated,
          },
          signal,
        ),
      );
      const fetched = signal?.aborted ? { stored: 0 } : await transcripts.fetchDue({ limit: opts.transcriptsPerTick, signal });
      return {
        shows: results.length,
        updated: results.filter((r) => r.status === 'updated').length,
        notModified: results.filter((r) => r.status === 'not_modified').length,
        failed: results.filter((r) => r.status === 'failed').length,
        newEpisodes: results.reduce((n, r) => n + r.newEpisodes, 0),
        transcriptsStored: fetched.stored,
      };
    },

    /** Fetches due publisher transcripts (all shows, or one), up to `limit`. */
    fetchTranscripts: (input: { showId?: bigint; limit: number; signal?: AbortSignal }) => transcripts.fetchDue(input),
  };
}

export type CatalogIngest = ReturnType<typeof createCatalogIngest>;
