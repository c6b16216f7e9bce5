import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LocalServer, startLocalServer } from '../../../src/infra/outbound/local-test-server.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface FeedItem {
  guid: string;
  title: string;
  path: string;
  seconds: number;
}

/** A podcast host on 127.0.0.1: an RSS feed, MP3s, and whatever misbehaviour a test wants. */
export interface AudioServer {
  endpoint: string;
  url(path: string): string;
  /** Serves `body` at `path` with ranges, as hosts do. */
  file(path: string, body: Buffer, contentType?: string): void;
  handle(path: string, handler: Handler): void;
  /** An RSS 2.0 document listing `items` at `path`. */
  feed(path: string, items: FeedItem[]): void;
  /** GET requests seen per path. */
  hits(path: string): number;
  close(): Promise<void>;
}

function rss(server: { url(path: string): string }, items: FeedItem[]): string {
  const entries = items.map(
    (i) => `<item><title>${i.title}</title><guid isPermaLink="false">${i.guid}</guid><pubDate>Tue, 10 Mar 2026 12:00:00 GMT</pubDate>
      <enclosure url="${server.url(i.path)}" type="audio/mpeg" length="1"/><itunes:duration>${i.seconds}</itunes:duration></item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Test show</title>${entries.join('')}</channel></rss>`;
}

export async function startAudioServer(): Promise<AudioServer> {
  const routes = new Map<string, Handler>();
  const counts = new Map<string, number>();
  let local: LocalServer | null = null;
  local = await startLocalServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      return;
    }
    handler(req, res);
  });
  const server: AudioServer = {
    endpoint: local.endpoint,
    url: (path) => local!.url(path),
    file(path, body, contentType = 'audio/mpeg') {
      routes.set(path, (req, res) => {
        const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
        const start = range ? Number(range[1]) : 0;
        const headers = { 'content-type': contentType, 'accept-ranges': 'bytes', 'content-length': String(body.length - start) };
        if (range) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
        else res.writeHead(200, headers);
        res.end(body.subarray(start));
      });
    },
    handle: (path, handler) => routes.set(path, handler),
    feed(path, items) {
      routes.set(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss(server, items)));
    },
    hits: (path) => counts.get(path) ?? 0,
    close: () => local!.close(),
  };
  return server;
}

/** A guid no other test uses. */
export function newGuid(label = 'ep'): string {
  return `${label}-${randomBytes(8).toString('hex')}`;
}
