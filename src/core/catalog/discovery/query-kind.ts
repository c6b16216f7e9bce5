import { type DirectoryTarget, directoryTarget } from './directory-links.js';
import { streamingService } from './streaming-services.js';

/** What a search query is, by its shape. */
export type QueryKind =
  | { kind: 'name' }
  | { kind: 'directory'; target: DirectoryTarget }
  | { kind: 'feed'; feedUrl: string }
  | { kind: 'streaming'; service: string };

// Old subscribe schemes that wrap a feed URL: itpc://host/feed, feed:https://host/feed …
const FEED_SCHEMES = /^(?:itpc|pcast|podcast|feed):(?:\/\/)?/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// A bare host with a path, as people paste links without the scheme: "podcasts.apple.com/us/podcast/…".
const BARE_LINK = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?\/\S*$/i;

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Tells a show name from a link, and a directory link from a streaming
 * service's and from an RSS feed URL. Anything that is not a URL (or a bare
 * `host/path`) is a name.
 *
 * @example queryKind('lennys podcast') // { kind: 'name' }
 * @example queryKind('open.spotify.com/show/2MAi0BvDc6GTFvKFPXnkCL') // { kind: 'streaming', service: 'Spotify' }
 * @example queryKind('itpc://feeds.example.com/rss') // { kind: 'feed', feedUrl: 'http://feeds.example.com/rss' }
 */
export function queryKind(q: string): QueryKind {
  const text = q.trim();
  if (/\s/.test(text)) return { kind: 'name' };
  if (FEED_SCHEMES.test(text)) {
    const rest = text.replace(FEED_SCHEMES, '');
    const url = parse(/^https?:\/\//i.test(rest) ? rest : `http://${rest}`);
    return url ? { kind: 'feed', feedUrl: url.href } : { kind: 'name' };
  }
  const url = SCHEME.test(text) && !/^[a-z0-9-]+\.[a-z]/i.test(text) ? parse(text) : BARE_LINK.test(text) ? parse(`https://${text}`) : null;
  if (!url) return { kind: 'name' };
  const service = streamingService(url);
  if (service) return { kind: 'streaming', service };
  const target = directoryTarget(url);
  if (target) return { kind: 'directory', target };
  if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'feed', feedUrl: url.href };
  return { kind: 'name' };
}
