import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';

/** A podcast as Apple's lookup API describes it. */
export interface AppleShow {
  appleId: number;
  title: string;
  author: string;
  /** The RSS feed; null for the few shows Apple hosts without one. */
  feedUrl: string | null;
  /** The largest artwork offered. */
  artwork: string;
  /** Genre names without the catch-all "Podcasts". */
  genres: string[];
  /** Apple's genre ids, in the order of `genres` (the catch-all 26 dropped). */
  genreIds: number[];
  episodeCount: number | null;
  explicit: boolean;
  /** Newest episode date as Apple reports it. */
  releaseDate: string | null;
  storeUrl: string | null;
}

/** Apple's lookup API answered something unusable. */
export class AppleLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AppleLookupError';
  }
}

interface LookupResult {
  wrapperType?: string;
  kind?: string;
  collectionId?: number;
  trackId?: number;
  collectionName?: string;
  trackName?: string;
  artistName?: string;
  feedUrl?: string;
  artworkUrl600?: string;
  artworkUrl100?: string;
  artworkUrl60?: string;
  genres?: string[];
  genreIds?: string[];
  trackCount?: number;
  collectionExplicitness?: string;
  releaseDate?: string;
  collectionViewUrl?: string;
}

/** Apple's catch-all genre, present on every podcast. */
const PODCASTS_GENRE = '26';

/**
 * Looks a podcast up by its Apple id (`/lookup?id=…&entity=podcast`) through
 * the guarded client. Answers null when Apple knows no podcast by that id.
 *
 * @param options.baseUrl API root. Default: `https://itunes.apple.com`.
 * @param options.timeoutMs Default: 15000.
 * @example (await lookupApple(outbound, 1535809341))?.feedUrl // 'https://jbpod.libsyn.com/applepodcast'
 */
export async function lookupApple(
  outbound: OutboundClient,
  appleId: number | bigint,
  options: { baseUrl?: string; timeoutMs?: number } = {},
): Promise<AppleShow | null> {
  const base = (options.baseUrl ?? 'https://itunes.apple.com').replace(/\/+$/, '');
  const url = `${base}/lookup?${new URLSearchParams({ id: String(appleId), media: 'podcast', entity: 'podcast' })}`;
  const res = await outbound.request(url, { headers: { accept: 'application/json' }, timeoutMs: options.timeoutMs ?? 15_000, maxBytes: 5 * 1024 * 1024 });
  if (res.status !== 200) throw new AppleLookupError(`Apple lookup answered ${res.status}`);
  let body: { results?: LookupResult[] };
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new AppleLookupError('Apple lookup answered with something that is not JSON');
  }
  const show = (body.results ?? []).find((r) => r.kind === 'podcast' || (r.wrapperType === 'collection' && r.feedUrl));
  const id = show?.collectionId ?? show?.trackId;
  if (!show || id === undefined) return null;
  const pairs = (show.genres ?? []).map((name, i) => ({ name, id: show.genreIds?.[i] })).filter((g) => g.id !== PODCASTS_GENRE && g.name !== 'Podcasts');
  return {
    appleId: id,
    title: show.collectionName ?? show.trackName ?? '',
    author: show.artistName ?? '',
    feedUrl: show.feedUrl ?? null,
    artwork: show.artworkUrl600 ?? show.artworkUrl100 ?? show.artworkUrl60 ?? '',
    genres: pairs.map((g) => g.name),
    genreIds: pairs.map((g) => Number(g.id)).filter((n) => Number.isInteger(n)),
    episodeCount: show.trackCount ?? null,
    explicit: show.collectionExplicitness === 'explicit',
    releaseDate: show.releaseDate ?? null,
    storeUrl: show.collectionViewUrl ?? null,
  };
}
