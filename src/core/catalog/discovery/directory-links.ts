/** What a podcast-directory link says about the show it points to. */
export type DirectoryTarget =
  | { kind: 'apple'; directory: string; appleId: bigint }
  | { kind: 'feed_id'; directory: string; feedId: bigint }
  | { kind: 'feed_url'; directory: string; feedUrl: string }
  /** A directory link naming the show only by that directory's own id. */
  | { kind: 'unresolvable'; directory: string; hint: string };

const APPLE_ID = /(?:^|\/|[?&])id=?(\d{5,12})(?:\b|$)/;

function onHost(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** An http(s) URL carried inside another link (a query parameter or an encoded path). */
function carriedFeedUrl(url: URL): string | null {
  for (const name of ['url', 'feed', 'feedurl', 'feed_url', 'rss']) {
    for (const [k, v] of url.searchParams) if (k.toLowerCase() === name && /^https?:\/\//i.test(v)) return v;
  }
  const rest = decodeURIComponent(url.pathname.slice(1));
  const inPath = /(https?:\/\/.+)$/i.exec(rest);
  return inPath ? inPath[1]! : null;
}

/** Google Podcasts show links carry the feed URL as base64 (`/feed/aHR0cHM6…`). */
function googleFeed(url: URL): string | null {
  const m = /\/feed\/([A-Za-z0-9_-]+=*)/.exec(url.pathname);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64url').toString('utf8');
  return /^https?:\/\/\S+$/i.test(decoded) ? decoded : null;
}

type Reader = { directory: string; domains: readonly string[]; read(url: URL): Omit<DirectoryTarget, 'directory'> | null };

const noShowId = (hint: string) => ({ kind: 'unresolvable' as const, hint });
const byApple = (id: string | undefined) => (id ? { kind: 'apple' as const, appleId: BigInt(id) } : null);

/** Directories Podtext reads links of, with what each link form carries. */
const READERS: readonly Reader[] = [
  {
    directory: 'Apple Podcasts',
    domains: ['podcasts.apple.com', 'itunes.apple.com', 'geo.itunes.apple.com', 'pcr.apple.com'],
    // /us/podcast/slug/id1200361736?i=1000… : the id in the path is the show; `i` is an episode.
    read: (url) => byApple(APPLE_ID.exec(url.pathname)?.[1] ?? url.searchParams.get('id') ?? undefined) ?? noShowId('the link carries no show id (…/id123456789)'),
  },
  {
    directory: 'Podcast Index',
    domains: ['podcastindex.org'],
    read: (url) => {
      const id = /\/podcast\/(\d{1,15})\b/.exec(url.pathname)?.[1];
      return id ? { kind: 'feed_id', feedId: BigInt(id) } : noShowId('only podcastindex.org/podcast/<number> links name a show');
    },
  },
  {
    directory: 'Overcast',
    domains: ['overcast.fm'],
    read: (url) => byApple(/\/itunes(\d{5,12})/.exec(url.pathname)?.[1]) ?? noShowId('Overcast episode links (overcast.fm/+…) do not say which show they belong to'),
  },
  {
    directory: 'Pocket Casts',
    domains: ['pca.st', 'pocketcasts.com'],
    read: (url) => byApple(/\/itunes\/(\d{5,12})/.exec(url.pathname)?.[1]) ?? feedIn(url) ?? noShowId('this Pocket Casts link names the show by Pocket Casts\' own id'),
  },
  {
    directory: 'Castro',
    domains: ['castro.fm'],
    read: (url) => byApple(/\/itunes\/(\d{5,12})/.exec(url.pathname)?.[1]) ?? feedIn(url) ?? noShowId('this Castro link names the show by Castro\'s own id'),
  },
  {
    directory: 'Castbox',
    domains: ['castbox.fm'],
    read: (url) => byApple(/\/vic\/(\d{5,12})/.exec(url.pathname)?.[1]) ?? feedIn(url) ?? noShowId('this Castbox link names the show by Castbox\'s own id'),
  },
  {
    directory: 'Podcast Addict',
    domains: ['podcastaddict.com'],
    read: (url) => feedIn(url) ?? noShowId('this Podcast Addict link names the show by Podcast Addict\'s own id'),
  },
  {
    directory: 'Podchaser',
    domains: ['podchaser.com'],
    read: (url) => feedIn(url) ?? noShowId('Podchaser links name the show by Podchaser\'s own id'),
  },
  {
    directory: 'Google Podcasts',
    domains: ['podcasts.google.com'],
    read: (url) => {
      const feed = googleFeed(url);
      return feed ? { kind: 'feed_url', feedUrl: feed } : noShowId('the link carries no feed (…/feed/<base64>)');
    },
  },
  {
    directory: 'Player FM',
    domains: ['player.fm'],
    read: (url) => feedIn(url) ?? noShowId('Player FM links name the show by Player FM\'s own id'),
  },
  {
    directory: 'Subscribe on Android',
    domains: ['subscribeonandroid.com'],
    read: (url) => {
      const rest = url.pathname.slice(1) + url.search;
      return rest ? { kind: 'feed_url', feedUrl: /^https?:\/\//i.test(rest) ? rest : `https://${rest}` } : noShowId('the link carries no feed');
    },
  },
];

function feedIn(url: URL): { kind: 'feed_url'; feedUrl: string } | null {
  const feedUrl = carriedFeedUrl(url);
  return feedUrl ? { kind: 'feed_url', feedUrl } : null;
}

/**
 * Reads a podcast-directory link: Apple Podcasts (podcasts.apple.com and
 * itunes.apple.com, `…/id123`), Podcast Index (`/podcast/123`), Overcast
 * (`/itunes123/…`), Pocket Casts, Castro and Castbox (their iTunes-id links),
 * and any of these or Podcast Addict, Podchaser, Player FM, Google Podcasts
 * and Subscribe on Android when the link carries the feed URL. A directory
 * link that names the show only by the directory's own id is
 * `unresolvable`, with a hint. Null when the host is not a directory.
 *
 * @example directoryTarget(new URL('https://podcasts.apple.com/us/podcast/the-daily/id1200361736'))
 * // { kind: 'apple', directory: 'Apple Podcasts', appleId: 1200361736n }
 */
export function directoryTarget(url: URL): DirectoryTarget | null {
  if (url.protocol === 'pktc:') {
    // pktc://subscribe/<feed without scheme>
    const feed = url.href.replace(/^pktc:\/\/subscribe\//i, '');
    return { kind: 'feed_url', directory: 'Pocket Casts', feedUrl: /^https?:\/\//i.test(feed) ? feed : `https://${feed}` };
  }
  const host = url.hostname.toLowerCase();
  const reader = READERS.find((r) => r.domains.some((d) => onHost(host, d)));
  if (!reader) return null;
  return { directory: reader.directory, ...reader.read(url) } as DirectoryTarget;
}
