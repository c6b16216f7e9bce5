import { createHash } from 'node:crypto';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import type { Clock } from '../../clock.js';
import { systemClock } from '../../clock.js';

/** The fields Podtext reads from a Podcast Index feed object (`feed` of podcasts/by*). */
export interface PodcastIndexFeed {
  id: number;
  url: string;
  title: string;
  originalUrl?: string;
  link?: string;
  description?: string;
  author?: string;
  ownerName?: string;
  image?: string;
  artwork?: string;
  itunesId?: number | null;
  language?: string;
  categories?: Record<string, string> | null;
  dead?: number;
  episodeCount?: number;
  podcastGuid?: string;
  newestItemPubdate?: number;
  [field: string]: unknown;
}

/** The fields Podtext reads from a Podcast Index episode object (`items` of episodes/byfeedid). */
export interface PodcastIndexEpisode {
  id: number;
  guid: string;
  title: string;
  datePublished: number;
  enclosureUrl: string;
  duration: number | null;
  feedId: number;
  [field: string]: unknown;
}

/** The API answered something other than a success (bad key, bad parameters, server error). */
export class PodcastIndexError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PodcastIndexError';
  }
}

export interface PodcastIndexClientOptions {
  key: string;
  secret: string;
  outbound: OutboundClient;
  /** API root. Default: `https://api.podcastindex.org/api/1.0`. */
  baseUrl?: string;
  /** Sent as User-Agent, which the API requires. Default: `Podtext/0.1`. */
  userAgent?: string;
  /** For X-Auth-Date. Default: the system clock. */
  clock?: Clock;
  /** Per request, in ms. Default: 15000. */
  timeoutMs?: number;
}

/**
 * The headers the Podcast Index API authenticates with: the key, the unix
 * time in seconds, and `Authorization` = hex SHA-1 of key + secret + that time.
 */
export function podcastIndexAuthHeaders(key: string, secret: string, now: Date, userAgent: string): Record<string, string> {
  const date = String(Math.floor(now.getTime() / 1000));
  return {
    'user-agent': userAgent,
    'x-auth-key': key,
    'x-auth-date': date,
    authorization: createHash('sha1').update(key + secret + date).digest('hex'),
  };
}

/**
 * A client for the Podcast Index API (api.podcastindex.org), through the
 * guarded outbound client. Lookups answer null when the index has no match
 * (the API then returns an empty `feed` array).
 *
 * @example
 * const pi = createPodcastIndexClient({ key, secret, outbound });
 * const feed = await pi.byFeedUrl('https://feeds.example.com/show.xml'); // { id: 75075, … } or null
 */
export function createPodcastIndexClient(options: PodcastIndexClientOptions) {
  const base = (options.baseUrl ?? 'https://api.podcastindex.org/api/1.0').replace(/\/+$/, '');
  const clock = options.clock ?? systemClock;
  const userAgent = options.userAgent ?? 'Podtext/0.1';

  async function get<T>(path: string, query: Record<string, string>): Promise<T> {
    const url = `${base}${path}?${new URLSearchParams(query).toString()}`;
    const res = await options.outbound.request(url, {
      headers: { ...podcastIndexAuthHeaders(options.key, options.secret, clock.now(), userAgent), accept: 'application/json' },
      timeoutMs: options.timeoutMs ?? 15_000,
      maxBytes: 20 * 1024 * 1024,
    });
    const text = res.body.toString('utf8');
    if (res.status !== 200) throw new PodcastIndexError(`Podcast Index answered ${res.status}: ${text.slice(0, 200)}`, res.status);
    let body: T & { status?: string; description?: string };
    try {
      body = JSON.parse(text);
    } catch {
      throw new PodcastIndexError('Podcast Index answered with something that is not JSON', res.status);
    }
    if (body.status === 'false') throw new PodcastIndexError(`Podcast Index refused: ${body.description ?? 'no reason given'}`, res.status);
    return body;
  }

  async function feed(path: string, query: Record<string, string>): Promise<PodcastIndexFeed | null> {
    const body = await get<{ feed?: PodcastIndexFeed | unknown[] }>(path, query);
    const found = body.feed;
    return found && !Array.isArray(found) && typeof (found as PodcastIndexFeed).id === 'number' ? (found as PodcastIndexFeed) : null;
  }

  return {
    /** `GET /podcasts/byfeedurl`. */
    byFeedUrl: (url: string) => feed('/podcasts/byfeedurl', { url }),
    /** `GET /podcasts/byitunesid`. */
    byItunesId: (id: number | bigint) => feed('/podcasts/byitunesid', { id: String(id) }),
    /** `GET /podcasts/byfeedid`. */
    byFeedId: (id: number | bigint) => feed('/podcasts/byfeedid', { id: String(id) }),
    /** `GET /episodes/byfeedid`, newest first. `max` defaults to 1000, the most the API returns. */
    async episodesByFeedId(id: number | bigint, max = 1000): Promise<PodcastIndexEpisode[]> {
      const body = await get<{ items?: PodcastIndexEpisode[] }>('/episodes/byfeedid', { id: String(id), max: String(max) });
      return Array.isArray(body.items) ? body.items : [];
    },
  };
}

export type PodcastIndexClient = ReturnType<typeof createPodcastIndexClient>;
