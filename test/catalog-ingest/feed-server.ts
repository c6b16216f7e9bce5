import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LocalServer, startLocalServer } from '../../src/infra/outbound/local-test-server.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

/** A real HTTP server on 127.0.0.1 whose routes a test swaps at will; it records every request. */
export interface FeedServer extends LocalServer {
  routes: Map<string, Route>;
  seen: SeenRequest[];
  /** Most requests in flight at once since the last `resetPeak`. */
  peak(): number;
  resetPeak(): void;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Route>();
  const seen: SeenRequest[] = [];
  let inFlight = 0;
  let peak = 0;
  const server = await startLocalServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path, headers: req.headers });
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    res.on('close', () => (inFlight -= 1));
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end('not here');
      return;
    }
    Promise.resolve(route(req, res)).catch(() => res.destroy());
  });
  return Object.assign(server, { routes, seen, peak: () => peak, resetPeak: () => (peak = 0) });
}

/** A route answering `body` with ETag/Last-Modified validators and honouring them with a 304. */
export function conditional(body: () => string | Buffer, validators: { etag?: string; lastModified?: string } = {}): Route {
  return (req, res) => {
    const { etag, lastModified } = validators;
    if ((etag && req.headers['if-none-match'] === etag) || (lastModified && req.headers['if-modified-since'] === lastModified)) {
      res.writeHead(304).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/rss+xml' };
    if (etag) headers.etag = etag;
    if (lastModified) headers['last-modified'] = lastModified;
    res.writeHead(200, headers).end(body());
  };
}

/** A route that always answers `body` with status 200. */
export function serve(body: string | Buffer, contentType = 'application/rss+xml'): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType }).end(body);
  };
}

/**
 * Serves a real feed at `/mn.xml` with its `<podcast:transcript>` links pointed at
 * this server: `.vtt` links answer `vtt`, the rest `srt`. Returns the feed's URL.
 */
export function serveMikeNeumannShow(server: FeedServer, transcripts: { srt: Buffer; vtt: Buffer }): string {
  const feed = readFileSync('test/fixtures/rss/themnshow-srt-vtt-transcripts.xml', 'utf8');
  server.routes.set('/mn.xml', serve(feed.replaceAll('https://mikeneumann.show/', server.url('/mn/'))));
  for (const [, file] of feed.matchAll(/<podcast:transcript url="https:\/\/mikeneumann\.show\/([^"]+)"/g)) {
    const vtt = file!.endsWith('.vtt');
    server.routes.set(`/mn/${file}`, serve(vtt ? transcripts.vtt : transcripts.srt, vtt ? 'text/vtt' : 'application/x-subrip'));
  }
  return server.url('/mn.xml');
}
