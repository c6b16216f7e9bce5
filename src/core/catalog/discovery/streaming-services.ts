/**
 * Streaming services: they play podcasts but do not publish a show's RSS
 * feed, and their show ids map to nothing in an open directory, so their
 * links cannot be resolved to a show. Matched on the host (a `www.` or
 * `m.` prefix and any subdomain included) and, for Amazon, on the path.
 */
const STREAMING: readonly { name: string; hosts: readonly string[]; path?: RegExp }[] = [
  { name: 'Spotify', hosts: ['spotify.com', 'spotify.link', 'spoti.fi'] },
  { name: 'Amazon Music', hosts: ['music.amazon.com', 'music.amazon.co.uk', 'music.amazon.de', 'music.amazon.fr', 'music.amazon.it', 'music.amazon.es', 'music.amazon.ca', 'music.amazon.co.jp', 'music.amazon.com.au', 'music.amazon.in', 'music.amazon.com.br', 'amzn.to'] },
  { name: 'Amazon Music', hosts: ['amazon.com', 'amazon.co.uk', 'amazon.de', 'amazon.fr', 'amazon.ca'], path: /\/(podcasts?|music)\b/i },
  { name: 'Audible', hosts: ['audible.com', 'audible.co.uk', 'audible.de', 'audible.fr', 'audible.ca', 'audible.com.au', 'audible.in', 'audible.it', 'audible.co.jp', 'audible.es'] },
  { name: 'YouTube', hosts: ['youtube.com', 'youtu.be', 'music.youtube.com'] },
  { name: 'iHeartRadio', hosts: ['iheart.com', 'iheartradio.com', 'ihr.fm'] },
  { name: 'Deezer', hosts: ['deezer.com', 'deezer.page.link', 'dzr.page.link'] },
  { name: 'Pandora', hosts: ['pandora.com', 'pandora.app.link'] },
  { name: 'TuneIn', hosts: ['tunein.com'] },
  { name: 'SoundCloud', hosts: ['soundcloud.com', 'on.soundcloud.com'] },
  { name: 'Apple Music', hosts: ['music.apple.com'] },
  { name: 'TIDAL', hosts: ['tidal.com'] },
  { name: 'Anghami', hosts: ['anghami.com'] },
  { name: 'JioSaavn', hosts: ['jiosaavn.com'] },
  { name: 'Boomplay', hosts: ['boomplay.com'] },
];

function onHost(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * The streaming service a link belongs to, or null.
 * @example streamingService(new URL('https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk')) // 'Spotify'
 */
export function streamingService(url: URL): string | null {
  if (url.protocol === 'spotify:') return 'Spotify';
  const host = url.hostname.toLowerCase();
  // feeds.soundcloud.com serves real RSS feeds; only SoundCloud's pages are streaming links.
  if (host === 'feeds.soundcloud.com') return null;
  for (const s of STREAMING) {
    if (s.hosts.some((d) => onHost(host, d)) && (!s.path || s.path.test(url.pathname))) return s.name;
  }
  return null;
}
