import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// A developer's single-page app, served from its own origin, calls Podtext's
// APIs with a key in a header. Chromium is the judge of what it may read.
describe('the APIs called from a page on another origin', () => {
  let t: TestPodtext;
  let browser: Browser;
  let page: Page;
  let site: string;
  let other: Server;

  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestPodtext();
    site = await t.podtext.listen();
    other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>An app</title>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    page = await (await browser.newContext()).newPage();
    // localhost, not 127.0.0.1: another origin and another site to the browser.
    await page.goto(`http://localhost:${(other.address() as AddressInfo).port}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => other?.close(resolve));
    await t?.close();
  });

  /** fetch() in the page; a response the browser withholds rejects, as it would in the app. */
  function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
    return page.evaluate(
      async ({ url, init }) => {
        const res = await fetch(url, init);
        return { status: res.status, body: (await res.json()) as Record<string, any>, remaining: res.headers.get('x-ratelimit-remaining'), retryAfter: res.headers.get('retry-after') };
      },
      { url: `${site}${path}`, init },
    );
  }

  it('REST: the answer and its rate-limit figures are readable, errors included, and a preflighted POST goes through', async () => {
    const a = await t.account({ credits: 3 });
    const auth = { authorization: `Bearer ${a.key}` };
    const me = await call('/api/v1/me', { headers: auth });
    expect(me).toMatchObject({ status: 200, body: { credits: 3 } });
    expect(Number(me.remaining)).toBeGreaterThan(0);
    // JSON with a key: the browser asks first (OPTIONS), then sends it.
    const bad = await call('/api/v1/requests', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', message: 'episodes: required' } } });
    const wrongKey = await call('/api/v1/me', { headers: { 'x-api-key': 'ptk_not_a_key' } });
    expect(wrongKey).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
  });

  it('GraphQL: the data and the rate-limit figures are readable', async () => {
    const a = await t.account({ credits: 2 });
    const res = await call('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { credits } }' }) });
    expect(res).toMatchObject({ status: 200, body: { data: { me: { credits: 2 } } } });
    expect(Number(res.remaining)).toBeGreaterThan(0);
  });

  it('a preflight names the route\'s methods and the headers a key travels in; servers and curl get no cross-origin headers', async () => {
    const pre = await fetch(`${site}/api/v1/requests`, { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const plain = await fetch(`${site}/api/v1/me`);
    expect(plain.status).toBe(401);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});
