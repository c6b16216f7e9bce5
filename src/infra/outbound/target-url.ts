import { OutboundError } from './outbound-error.js';

/**
 * Parses a URL Podtext is about to fetch and refuses anything but http: and
 * https: (file:, gopher:, data:, ftp: … would reach places a feed URL must
 * not). With `httpsOnly`, plain http: is refused too.
 */
export function parseTarget(raw: string | URL, httpsOnly: boolean, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new OutboundError('bad_url', `not a URL: ${String(raw).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_scheme', `scheme ${url.protocol} is not allowed`, { url: redact(url) });
  }
  if (httpsOnly && url.protocol !== 'https:') {
    throw new OutboundError('bad_scheme', 'only https: is allowed here', { url: redact(url) });
  }
  if (!url.hostname) throw new OutboundError('bad_url', 'URL has no host', { url: redact(url) });
  return url;
}

/** The URL without user info, fit for logs, errors and results. */
export function redact(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** The URL's host without IPv6 brackets, as node:net expects it. */
export function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
