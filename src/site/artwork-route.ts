import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { RestEnv } from '../rest/env.js';
import { errorPage } from './pages/error-page.js';

/** Where a show's artwork is served on this site; the only place pages load it from. */
export function artworkPath(feedId: bigint | number | string): string {
  return `/shows/${String(feedId)}/artwork`;
}

const MAX_FEED_ID = 2n ** 63n - 1n;

function feedIdOf(text: string): bigint | null {
  if (!/^[1-9]\d{0,18}$/.test(text)) return null;
  const id = BigInt(text);
  return id <= MAX_FEED_ID ? id : null;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** The letter tile as a picture: what a show without usable artwork looks like (generated here, never fetched). */
export function letterTileSvg(title: string): string {
  const letter = (Array.from(title.trim())[0] ?? '?').toUpperCase().replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300"><rect width="300" height="300" fill="#e6e8f5"/><text x="150" y="150" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="140" font-weight="700" fill="#3b3fd8">${letter}</text></svg>`;
}

/** Answers `bytes` with a validator, or 304 when the browser already holds them. */
function picture(c: Context<RestEnv>, bytes: Buffer | string, type: string, etag: string, maxAge: number) {
  const headers = {
    etag,
    'cache-control': `public, max-age=${maxAge}`,
    'x-content-type-options': 'nosniff',
    // Opened on its own, a picture runs nothing and loads nothing.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
  const match = c.req.header('if-none-match');
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
  return c.body(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), 200, { ...headers, 'content-type': type });
}

/**
 * `GET /shows/{feed_id}/artwork`: the show's artwork from Podtext's own
 * origin. It takes a feed id and nothing else, so it can fetch only the
 * stored artwork of a known show, never an address a visitor names. A show
 * without usable artwork gets its letter tile (cached for an hour, so a
 * publisher that recovers is shown again soon).
 */
export function registerArtworkRoute(app: Hono<RestEnv>): void {
  app.get('/shows/:feedId/artwork', async (c) => {
    const feedId = feedIdOf(c.req.param('feedId'));
    const art = feedId === null ? null : await c.get('services').artwork.get(feedId);
    if (!art) return c.html(errorPage(404, 'Not found', 'No show has this number.'), 404);
    if (art.picture) return picture(c, art.picture.bytes, art.picture.type, art.picture.etag, 86_400);
    const svg = letterTileSvg(art.title);
    const etag = `"tile-${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"`;
    return picture(c, svg, 'image/svg+xml; charset=utf-8', etag, 3_600);
  });
}
