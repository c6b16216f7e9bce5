import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../src/infra/outbound/local-test-server.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Feed URLs are shown to every key, and search-by-URL errors are read by
// anyone: neither may carry credentials or what a name resolves to.
let t: TestPodtext;
let a: TestAccount;
let feeds: LocalServer;
beforeAll(async () => {
  const rss = await readFile(new URL('../fixtures/rss/apple-podcasters-guide-example.xml', import.meta.url));
  feeds = await startLocalServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss));
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: feeds.endpoint } });
  a = await t.account();
});
afterAll(async () => {
  await t?.close();
  await feeds?.close();
});

async function search(q: string): Promise<{ status: number; text: string; body: { error?: { code: string; message: string } } }> {
  const res = await t.api('GET', `/search?q=${encodeURIComponent(q)}`, { key: a.key });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as never };
}

describe('feed URLs with a user name or password', () => {
  it('are refused with a clear error, and nothing with the credentials is stored or shown', async () => {
    const withSecret = feeds.url('/feed.xml').replace('://', '://listener:hunter2secret@');
    const r = await search(withSecret);
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_request');
    expect(r.body.error?.message).toMatch(/^q: .*user name or password/);
    expect(r.text).not.toContain('hunter2secret');
    expect(await t.podtext.services.db.show.count({ where: { feedUrl: { contains: 'hunter2secret' } } })).toBe(0);
    // The same feed without credentials is added as usual.
    expect((await search(feeds.url('/feed.xml'))).status).toBe(200);
  });
});

describe('search-by-URL errors do not reveal DNS answers', () => {
  it.each([
    ['a name that resolves to a private address', 'http://localhost:9/feed.xml'],
    ['a private address', 'http://10.1.2.3/feed.xml'],
    ['a name that does not resolve', 'http://no-such-feed-host.invalid/feed.xml'],
  ])('%s: "cannot be fetched", nothing more', async (_what, url) => {
    const r = await search(url);
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toBe('q: this address cannot be fetched');
    expect(r.text).not.toMatch(/127\.0\.0\.1|::1|resolves|ENOTFOUND|EAI_AGAIN|getaddrinfo/);
  });
});
