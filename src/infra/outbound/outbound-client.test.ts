import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startLocalServer, type LocalServer } from './local-test-server.js';
import { createOutboundClient, type OutboundClient } from './outbound-client.js';

let server: LocalServer;
let client: OutboundClient;
let seen: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
const openStreams = new Set<NodeJS.Timeout>();
let bomb: Buffer | undefined;

/** About 1 MB on the wire, 1 GB decoded: ten gzip members of 100 MB of zeros each. */
function gzipBomb(): Buffer {
  if (!bomb) {
    const member = gzipSync(Buffer.alloc(100_000_000));
    bomb = Buffer.concat(Array.from({ length: 10 }, () => member));
  }
  return bomb;
}

function trickle(res: import('node:http').ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.write('x');
  const timer = setInterval(() => res.write('x'), everyMs);
  openStreams.add(timer);
  res.on('close', () => {
    clearInterval(timer);
    openStreams.delete(timer);
  });
}

beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      const hops = Number(url.searchParams.get('n') ?? 0);
      switch (url.pathname) {
        case '/hop':
          if (hops > 0) res.writeHead(302, { location: `/hop?n=${hops - 1}` }).end('moving');
          else res.end('arrived');
          return;
        case '/see-other':
          res.writeHead(303, { location: '/hop' }).end();
          return;
        case '/temporary':
          res.writeHead(307, { location: '/hop' }).end();
          return;
        case '/big':
          res.end(Buffer.alloc(2_000_000, 'a'));
          return;
        case '/big-chunked':
          res.writeHead(200, { 'transfer-encoding': 'chunked' });
          res.end(Buffer.alloc(2_000_000, 'a'));
          return;
        case '/gzip':
          res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('compressed hello'));
          return;
        case '/br':
          res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli hello'));
          return;
        case '/gzip-bomb':
          res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipBomb());
          return;
        case '/endless': {
          res.writeHead(200);
          const chunk = Buffer.alloc(64 * 1024, 'z');
          const pump = (): void => {
            while (!res.destroyed && res.write(chunk));
            if (!res.destroyed) res.once('drain', pump);
          };
          pump();
          return;
        }
        case '/trickle':
          trickle(res, Number(url.searchParams.get('every') ?? 1000));
          return;
        default:
          res.setHeader('x-multi', ['a', 'b']);
          res.end(`hello ${req.method}`);
      }
    });
  });
  client = createOutboundClient({ allow: [server.endpoint], userAgent: 'PodtextTest/1' });
});

afterAll(async () => {
  for (const timer of openStreams) clearInterval(timer);
  await server.close();
});

describe('outbound client: plain requests', () => {
  it('returns status, flattened headers, final URL and body; sends the user agent', async () => {
    seen = [];
    const res = await client.request(server.url('/plain'), { method: 'post', body: 'payload' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello POST');
    expect(res.headers['x-multi']).toBe('a, b');
    expect(res.url).toBe(server.url('/plain'));
    expect(res.truncated).toBe(false);
    expect(seen[0].headers['user-agent']).toBe('PodtextTest/1');
    expect(seen[0].body).toBe('payload');
  });

  it('decodes gzip and br', async () => {
    expect((await client.request(server.url('/gzip'))).body.toString()).toBe('compressed hello');
    expect((await client.request(server.url('/br'))).body.toString()).toBe('brotli hello');
  });
});

describe('outbound client: redirects', () => {
  it('follows up to 5 redirects', async () => {
    const res = await client.request(server.url('/hop?n=5'));
    expect(res.body.toString()).toBe('arrived');
    expect(res.url).toBe(server.url('/hop?n=0'));
  });

  it('refuses a 6th redirect', async () => {
    const err = await failure(client.request(server.url('/hop?n=6')));
    expect(err.code).toBe('too_many_redirects');
  });

  it('honours a lower maxRedirects', async () => {
    const err = await failure(client.request(server.url('/hop?n=2'), { maxRedirects: 1 }));
    expect(err.code).toBe('too_many_redirects');
  });

  it('returns the 3xx as is when maxRedirects is 0', async () => {
    seen = [];
    const res = await client.request(server.url('/hop?n=1'), { maxRedirects: 0 });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/hop?n=0');
    expect(res.body.toString()).toBe('moving');
    expect(seen).toHaveLength(1);
  });

  it('turns a POST into a GET on 303 and keeps it on 307', async () => {
    seen = [];
    await client.request(server.url('/see-other'), { method: 'POST', body: 'x' });
    expect(seen.map((r) => r.method)).toEqual(['POST', 'GET']);
    seen = [];
    await client.request(server.url('/temporary'), { method: 'POST', body: 'x' });
    expect(seen.map((r) => [r.method, r.body])).toEqual([['POST', 'x'], ['POST', 'x']]);
  });
});

describe('outbound client: bounded bodies and time', () => {
  it('refuses a body over the cap from its Content-Length', async () => {
    const err = await failure(client.request(server.url('/big'), { maxBytes: 1_000_000 }));
    expect(err.code).toBe('too_large');
  });

  it('refuses a chunked body as soon as it passes the cap', async () => {
    const err = await failure(client.request(server.url('/big-chunked'), { maxBytes: 1_000_000 }));
    expect(err.code).toBe('too_large');
  });

  it('truncates instead when asked', async () => {
    const res = await client.request(server.url('/big'), { maxBytes: 1000, truncate: true });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(1000);
  });

  it('applies the cap to decoded bytes (a gzip bomb)', async () => {
    gzipBomb();
    const started = performance.now();
    const err = await failure(client.request(server.url('/gzip-bomb'), { maxBytes: 1_000_000 }));
    expect(err.code).toBe('too_large');
    // Inflating the whole gigabyte would take several seconds.
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('cuts an endless stream at the cap', async () => {
    const err = await failure(client.request(server.url('/endless'), { maxBytes: 5_000_000 }));
    expect(err.code).toBe('too_large');
  });

  it('stops a server that trickles slower than the idle limit', async () => {
    const started = performance.now();
    const err = await failure(client.request(server.url('/trickle?every=1000'), { idleTimeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('stops a server that trickles just fast enough to never be idle, at the total limit', async () => {
    const started = performance.now();
    const err = await failure(
      client.request(server.url('/trickle?every=100'), { idleTimeoutMs: 500, timeoutMs: 1200 }),
    );
    expect(err.code).toBe('timeout');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1150);
    expect(elapsed).toBeLessThan(5000);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(client.request(server.url('/trickle?every=50'), { signal: controller.signal }));
    expect(err.code).toBe('aborted');
  });

  it('reports an unreachable host as a network error', async () => {
    const closed = await startLocalServer((_req, res) => res.end());
    await closed.close();
    const local = createOutboundClient({ allow: [closed.endpoint] });
    const err = await failure(local.request(closed.url('/')));
    expect(err.code).toBe('network');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('rejects a malformed URL', async () => {
    const err = await failure(client.request('http://exa mple.com/'));
    expect(err.code).toBe('bad_url');
  });
});

describe('outbound client: credentials', () => {
  it('sends URL user info as Basic auth and drops credentials on a cross-origin redirect', async () => {
    const received: (string | undefined)[][] = [];
    const target = await startLocalServer((req, res) => {
      received.push(['target', req.headers.authorization, req.headers.cookie]);
      res.end('ok');
    });
    const origin = await startLocalServer((req, res) => {
      received.push(['origin', req.headers.authorization, req.headers.cookie]);
      res.writeHead(302, { location: target.url('/') }).end();
    });
    try {
      const local = createOutboundClient({ allow: [origin.endpoint, target.endpoint] });
      const res = await local.request(`http://user:s%40cret@${origin.endpoint}/`, { headers: { Cookie: 'a=1' } });
      expect(res.url).toBe(target.url('/'));
      expect(received).toEqual([
        ['origin', `Basic ${Buffer.from('user:s@cret').toString('base64')}`, 'a=1'],
        ['target', undefined, undefined],
      ]);
    } finally {
      await origin.close();
      await target.close();
    }
  });
});
