import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer as PublisherHost, startAudioServer as startPublisherHost } from '../jobs/support/audio-server.js';

/** A real PNG of `size` pixels square, drawn by ffmpeg. */
function png(size: number): Buffer {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'podtext-art-')), 'cover.png');
  execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x3366cc:s=${size}x${size}`, '-frames:v', '1', file]);
  return readFileSync(file);
}

let nextFeedId = 6_000_000n;

// Artwork comes from Podtext's own origin: the browser never contacts a publisher.
describe('show artwork', () => {
  let t: TestPodtext;
  let publisher: PublisherHost;
  /** A host that is not allowed through the private-address guard. */
  let privateHost: PublisherHost;
  let browser: Browser;
  let site: string;
  let cover: Buffer;

  beforeAll(async () => {
    cover = png(64);
    [publisher, privateHost, browser] = await Promise.all([startPublisherHost(), startPublisherHost(), launchBrowser()]);
    t = await startTestPodtext({ env: { OUTBOUND_ALLOW: publisher.endpoint, WORKERS: '0' } });
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await publisher?.close();
    await privateHost?.close();
  });

  async function addShow(title: string, artwork: string): Promise<bigint> {
    const id = nextFeedId++;
    await t.podtext.services.db.show.create({ data: { id, title, author: 'Tester', artwork, searchName: title.toLowerCase(), searchCompact: title.toLowerCase().replace(/\s+/g, '') } });
    return id;
  }

  /** Loads `pathname` in a fresh browser (no cache of its own), recording every request. */
  async function view(pathname: string): Promise<{ page: Page; requested: string[]; close(): Promise<void> }> {
    const context = await browser.newContext({ baseURL: site });
    const requested: string[] = [];
    context.on('request', (r) => requested.push(r.url()));
    const page = await context.newPage();
    await page.goto(pathname);
    await page.waitForLoadState('load');
    return { page, requested, close: () => context.close() };
  }

  const naturalWidth = (page: Page, selector: string) => page.locator(selector).evaluate((img: HTMLImageElement) => img.naturalWidth);

  it('shows the artwork on the show page and in search results, loaded from Podtext; the publisher is asked once for many views', async () => {
    publisher.file('/covers/waffles.png', cover, 'image/png');
    const id = await addShow('Waffle Hour', publisher.url('/covers/waffles.png'));
    const v = await view(`/shows/${id}`);
    const img = v.page.locator('h1').locator('xpath=../..').locator('img.art');
    expect(await img.getAttribute('alt')).toBe('Artwork of Waffle Hour');
    expect(await img.getAttribute('src')).toBe(`/shows/${id}/artwork`);
    expect(await img.getAttribute('width')).toBe('144');
    expect(await img.getAttribute('height')).toBe('144');
    expect(await naturalWidth(v.page, 'img.art.big')).toBe(64);
    expect(v.requested.filter((u) => !u.startsWith(site))).toEqual([]);
    expect(await seriousAxeViolations(v.page)).toEqual([]);
    await v.close();

    await t.podtext.services.discovery.showSearch.reload();
    const found = await view(`/?q=${encodeURIComponent('Waffle Hour')}`);
    const card = found.page.locator(`#results li:has(a[href="/shows/${id}"]) img.art`);
    expect(await card.getAttribute('alt')).toBe('Artwork of Waffle Hour');
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => card.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(64);
    expect(found.requested.filter((u) => !u.startsWith(site))).toEqual([]);
    await found.close();

    // More views, fresh browsers and direct requests at once: still one fetch from the publisher.
    const more = await Promise.all([view(`/shows/${id}`), view(`/shows/${id}`)]);
    for (const m of more) await m.close();
    const direct = await Promise.all(Array.from({ length: 5 }, () => t.request(`/shows/${id}/artwork`)));
    for (const r of direct) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await r.arrayBuffer()).equals(cover)).toBe(true);
    }
    expect(publisher.hits('/covers/waffles.png')).toBe(1);
  });

  it('lets browsers cache the picture: Cache-Control, and 304 for the ETag they hold', async () => {
    publisher.file('/covers/cached.png', cover, 'image/png');
    const id = await addShow('Cache Talk', publisher.url('/covers/cached.png'));
    const first = await t.request(`/shows/${id}/artwork`);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request(`/shows/${id}/artwork`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it('gives the letter tile for a non-image, a mislabelled body, an oversize picture, a missing one or a private address', async () => {
    publisher.handle('/covers/page.html', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Moved</p>'));
    publisher.handle('/covers/liar.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('<!doctype html><script>alert(1)</script>'));
    const huge = Buffer.concat([cover, Buffer.alloc(6 * 1024 * 1024)]);
    publisher.file('/covers/huge.png', huge, 'image/png');
    privateHost.file('/cover.png', cover, 'image/png');
    const cases = [
      ['Html Show', publisher.url('/covers/page.html')],
      ['Liar Show', publisher.url('/covers/liar.png')],
      ['Huge Show', publisher.url('/covers/huge.png')],
      ['Missing Show', publisher.url('/covers/missing.png')],
      ['Private Show', privateHost.url('/cover.png')],
    ] as const;
    for (const [title, url] of cases) {
      const id = await addShow(title, url);
      const r = await t.request(`/shows/${id}/artwork`);
      expect(r.status, title).toBe(200);
      expect(r.headers.get('content-type'), title).toBe('image/svg+xml; charset=utf-8');
      const svg = await r.text();
      expect(svg, title).toContain(`>${title[0]}</text>`);
      expect(svg, title).not.toContain('script');
      // Asked again: the failure is remembered, the publisher not asked again.
      await t.request(`/shows/${id}/artwork`);
    }
    expect(publisher.hits('/covers/page.html')).toBe(1);
    expect(publisher.hits('/covers/huge.png')).toBe(1);
    expect(privateHost.hits('/cover.png')).toBe(0);

    // In the browser the tile is a picture with the show's name as its text alternative.
    const liar = await addShow('Liar Again', publisher.url('/covers/liar.png'));
    const v = await view(`/shows/${liar}`);
    expect(await v.page.locator('img.art.big').getAttribute('alt')).toBe('Artwork of Liar Again');
    expect(await naturalWidth(v.page, 'img.art.big')).toBeGreaterThan(0);
    await v.close();

    // No artwork address at all: the tile is drawn in the page, nothing is requested.
    const bare = await addShow('Bare Show', '');
    const b = await view(`/shows/${bare}`);
    expect(await b.page.locator('img.art').count()).toBe(0);
    expect(await b.page.locator('span.art.big').textContent()).toBe('B');
    expect(b.requested.filter((u) => u.includes('/artwork'))).toEqual([]);
    await b.close();
  });

  it('never fetches an address a visitor names: only the stored artwork of a known show', async () => {
    publisher.file('/covers/real.png', cover, 'image/png');
    publisher.file('/elsewhere.png', cover, 'image/png');
    const id = await addShow('Real Show', publisher.url('/covers/real.png'));
    const elsewhere = encodeURIComponent(publisher.url('/elsewhere.png'));
    const withUrl = await t.request(`/shows/${id}/artwork?url=${elsewhere}&src=${elsewhere}`);
    expect(withUrl.status).toBe(200);
    expect(publisher.hits('/covers/real.png')).toBe(1);
    for (const p of ['/shows/999999999/artwork', `/shows/${elsewhere}/artwork`, '/shows/0x10/artwork', '/shows/99999999999999999999/artwork', `/shows/${id}/artwork/${elsewhere}`]) {
      const r = await t.request(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type'), p).toContain('text/html');
    }
    expect(publisher.hits('/elsewhere.png')).toBe(0);
  });
});
