import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startLocalServer, type LocalServer } from './local-test-server.js';
import { createOutboundClient, type OutboundClient } from './outbound-client.js';

const audio = randomBytes(1_000_000);
const DROP_AT = 300_000;
let server: LocalServer;
let client: OutboundClient;
let dir: string;
let requests: { path: string; range?: string; ifRange?: string }[] = [];

/** Sends the head of the file, then cuts the connection mid-body. */
function sendAndDrop(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, { 'content-length': String(audio.length), 'content-type': 'audio/mpeg', ...headers });
  res.write(audio.subarray(0, DROP_AT), () => setTimeout(() => res.socket?.destroy(), 20));
}

function serveRange(req: IncomingMessage, res: ServerResponse): void {
  const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1]);
  res.writeHead(206, {
    'content-range': `bytes ${from}-${audio.length - 1}/${audio.length}`,
    'content-length': String(audio.length - from),
    'content-type': 'audio/mpeg',
  });
  res.end(audio.subarray(from));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'podtext-download-'));
  server = await startLocalServer((req, res) => {
    const path = req.url ?? '/';
    const seenBefore = requests.filter((r) => r.path === path).length;
    requests.push({ path, range: req.headers.range, ifRange: req.headers['if-range'] as string | undefined });
    switch (path) {
      case '/resumable.mp3':
        if (req.headers.range) serveRange(req, res);
        else sendAndDrop(res, { 'accept-ranges': 'bytes', etag: '"v1"' });
        return;
      case '/no-ranges.mp3':
        if (seenBefore === 0) sendAndDrop(res, {});
        else res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(audio);
        return;
      case '/always-drops.mp3':
        sendAndDrop(res, { 'accept-ranges': 'bytes' });
        return;
      case '/flaky.mp3':
        if (seenBefore === 0) res.writeHead(503).end();
        else res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(audio);
        return;
      case '/moved.mp3':
        res.writeHead(301, { location: '/flaky.mp3' }).end();
        return;
      case '/huge.mp3':
        res.writeHead(200, { 'content-length': String(audio.length) }).end(audio);
        return;
      case '/endless.mp3': {
        res.writeHead(200);
        const pump = (): void => {
          while (!res.destroyed && res.write(audio));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      default:
        res.writeHead(404).end('missing');
    }
  });
  client = createOutboundClient({ allow: [server.endpoint] });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('download', () => {
  it('resumes with Range after a dropped connection', async () => {
    requests = [];
    const file = join(dir, 'resumable.mp3');
    const result = await client.download(server.url('/resumable.mp3'), file, { maxBytes: 5_000_000, retryDelayMs: 10 });
    expect(result).toEqual({ bytes: audio.length, contentType: 'audio/mpeg', url: server.url('/resumable.mp3'), etag: '"v1"', lastModified: null });
    expect((await readFile(file)).equals(audio)).toBe(true);
    expect(requests).toHaveLength(2);
    expect(requests[0].range).toBeUndefined();
    const resumedFrom = Number(/bytes=(\d+)-/.exec(requests[1].range ?? '')?.[1]);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThanOrEqual(DROP_AT);
    expect(requests[1].ifRange).toBe('"v1"');
  });

  it('starts over when the host does not take ranges', async () => {
    requests = [];
    const file = join(dir, 'no-ranges.mp3');
    const result = await client.download(server.url('/no-ranges.mp3'), file, { maxBytes: 5_000_000, retryDelayMs: 10 });
    expect(result.bytes).toBe(audio.length);
    expect((await readFile(file)).equals(audio)).toBe(true);
    expect(requests.map((r) => r.range)).toEqual([undefined, undefined]);
  });

  it('gives up after the bounded retries and removes the partial file', async () => {
    requests = [];
    const file = join(dir, 'always-drops.mp3');
    const err = await failure(
      client.download(server.url('/always-drops.mp3'), file, { maxBytes: 5_000_000, maxRetries: 2, retryDelayMs: 10 }),
    );
    expect(err.code).toBe('network');
    expect(requests).toHaveLength(3);
    expect(existsSync(file)).toBe(false);
  });

  it('retries a 5xx and follows redirects', async () => {
    requests = [];
    const file = join(dir, 'flaky.mp3');
    const result = await client.download(server.url('/moved.mp3'), file, { maxBytes: 5_000_000, retryDelayMs: 10 });
    expect(result.url).toBe(server.url('/flaky.mp3'));
    expect((await readFile(file)).equals(audio)).toBe(true);
  });

  it('does not retry a 404', async () => {
    requests = [];
    const err = await failure(client.download(server.url('/gone.mp3'), join(dir, 'gone.mp3'), { maxBytes: 1000 }));
    expect(err.code).toBe('http_status');
    expect(err.details.status).toBe(404);
    expect(requests).toHaveLength(1);
  });

  it('refuses a file over the cap from its Content-Length, without retrying', async () => {
    requests = [];
    const err = await failure(client.download(server.url('/huge.mp3'), join(dir, 'huge.mp3'), { maxBytes: 1000 }));
    expect(err.code).toBe('too_large');
    expect(requests).toHaveLength(1);
  });

  it('cuts an endless stream at the cap and removes the file', async () => {
    const file = join(dir, 'endless.mp3');
    const err = await failure(client.download(server.url('/endless.mp3'), file, { maxBytes: 3_000_000 }));
    expect(err.code).toBe('too_large');
    expect(existsSync(file)).toBe(false);
  });

  it('refuses private addresses like request does', async () => {
    const err = await failure(createOutboundClient().download(server.url('/huge.mp3'), join(dir, 'x.mp3'), { maxBytes: 10 }));
    expect(err.code).toBe('blocked_address');
  });
});
