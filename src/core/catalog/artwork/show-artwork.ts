import { createHash } from 'node:crypto';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import { OutboundError } from '../../../infra/outbound/outbound-error.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import type { Clock } from '../../clock.js';
import { findById } from '../discovery/show-finders.js';
import { type ImageType, isRasterContentType, sniffImageType } from './image-type.js';

export interface ArtworkOptions {
  /** Largest picture fetched, in bytes. Default: 5 MB (5 * 1024 * 1024). */
  maxBytes?: number;
  /** Bytes of pictures kept in memory; the least recently used go first. Default: 64 MB. */
  cacheBytes?: number;
  /** How long a fetched picture is served before it is fetched again, in ms. Default: 86400000 (1 day). */
  freshMs?: number;
  /** How long a failed fetch is remembered before the publisher is tried again, in ms. Default: 3600000 (1 hour). */
  retryAfterMs?: number;
  /** Time limit of one fetch, redirects and body included, in ms. Default: 10000. */
  timeoutMs?: number;
}

export interface ArtworkPicture {
  type: ImageType;
  bytes: Buffer;
  /** A strong validator of `bytes`, quoted, for ETag / If-None-Match. */
  etag: string;
}

/** A known show's artwork: the picture, or null when it has none or the publisher's answer was not usable. */
export interface ShowArtwork {
  title: string;
  picture: ArtworkPicture | null;
}

interface Entry {
  url: string;
  picture: ArtworkPicture | null;
  expiresAt: number;
}

/** What an entry without a picture is counted as, so failures cannot fill memory unbounded. */
const EMPTY_ENTRY_BYTES = 256;

/**
 * Shows' artwork, served from Podtext's own origin so a page never makes the
 * browser contact a publisher. Only the stored `artwork` URL of a known show
 * is ever fetched, through the guarded outbound client (private-address
 * guard, size and time limits); only PNG, JPEG, GIF and WebP are kept, by
 * their magic bytes. Pictures and failures are remembered in memory, and
 * concurrent requests for one show share one fetch, so many page views
 * cost the publisher one request per show and day.
 */
export function createShowArtwork(deps: { db: PrismaClient; outbound: OutboundClient; clock: Clock; log: Logger; options?: ArtworkOptions }) {
  const { db, outbound, clock, log } = deps;
  const maxBytes = deps.options?.maxBytes ?? 5 * 1024 * 1024;
  const cacheBytes = deps.options?.cacheBytes ?? 64 * 1024 * 1024;
  const freshMs = deps.options?.freshMs ?? 86_400_000;
  const retryAfterMs = deps.options?.retryAfterMs ?? 3_600_000;
  const timeoutMs = deps.options?.timeoutMs ?? 10_000;

  // Map order is recency order: an entry moves to the end when used.
  const cache = new Map<bigint, Entry>();
  let cachedBytes = 0;
  const inFlight = new Map<string, Promise<Entry>>();

  const sizeOf = (e: Entry) => e.picture?.bytes.length ?? EMPTY_ENTRY_BYTES;

  function remember(feedId: bigint, entry: Entry): void {
    const old = cache.get(feedId);
    if (old) {
      cachedBytes -= sizeOf(old);
      cache.delete(feedId);
    }
    // A picture larger than the whole cache is served but not kept.
    if (sizeOf(entry) > cacheBytes) return;
    cache.set(feedId, entry);
    cachedBytes += sizeOf(entry);
    for (const [id, e] of cache) {
      if (cachedBytes <= cacheBytes) break;
      cache.delete(id);
      cachedBytes -= sizeOf(e);
    }
  }

  async function fetchPicture(url: string): Promise<ArtworkPicture> {
    const res = await outbound.request(url, { maxBytes, timeoutMs, maxRedirects: 3, headers: { accept: 'image/png,image/jpeg,image/gif,image/webp;q=0.9,*/*;q=0.1' } });
    if (res.status !== 200) throw new OutboundError('http_status', `answered ${res.status}`, { url: res.url, status: res.status });
    if (!isRasterContentType(res.headers['content-type'])) throw new Error(`not an image: Content-Type ${res.headers['content-type'] ?? 'missing'}`);
    const type = sniffImageType(res.body);
    if (!type) throw new Error('not a PNG, JPEG, GIF or WebP picture');
    return { type, bytes: res.body, etag: `"${createHash('sha256').update(res.body).digest('base64url').slice(0, 27)}"` };
  }

  async function refresh(feedId: bigint, url: string, previous: Entry | undefined): Promise<Entry> {
    const now = clock.now().getTime();
    try {
      return { url, picture: await fetchPicture(url), expiresAt: now + freshMs };
    } catch (err) {
      log.debug({ feedId: String(feedId), err: err instanceof Error ? err.message : String(err) }, 'show artwork unavailable');
      // An older copy of the same picture beats none while the publisher is down.
      const kept = previous?.url === url ? previous.picture : null;
      return { url, picture: kept, expiresAt: now + retryAfterMs };
    }
  }

  return {
    /**
     * The artwork of show `feedId`, fetched at most once per show while fresh.
     * @returns null for an unknown show (or one not to be browsed).
     */
    async get(feedId: bigint): Promise<ShowArtwork | null> {
      const show = await findById(db, feedId, { select: { title: true, artwork: true } });
      if (!show) return null;
      const url = show.artwork.trim();
      if (!/^https?:\/\//i.test(url)) return { title: show.title, picture: null };
      const cached = cache.get(feedId);
      if (cached && cached.url === url && cached.expiresAt > clock.now().getTime()) {
        cache.delete(feedId);
        cache.set(feedId, cached);
        return { title: show.title, picture: cached.picture };
      }
      const key = `${feedId} ${url}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = refresh(feedId, url, cached).then((entry) => {
          remember(feedId, entry);
          return entry;
        });
        pending.finally(() => inFlight.delete(key)).catch(() => undefined);
        inFlight.set(key, pending);
      }
      return { title: show.title, picture: (await pending).picture };
    },
  };
}

export type ShowArtworkService = ReturnType<typeof createShowArtwork>;
