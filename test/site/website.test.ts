import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { wordErrorRate } from '../../src/infra/asr/word-error-rate.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type AudioServer as PublisherHost, startAudioServer as startPublisherHost } from '../jobs/support/audio-server.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { type AudioServer, startAudioServer } from '../support/audio-server.js';
import { seriousAxeViolations } from '../support/axe.js';
import { launchBrowser, signInWith } from '../support/browser.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';

// A real browser against a real server: what a person on the website does.
// Chromium is required: without it these tests fail rather than skip.
describe('the website in Chromium', () => {
  let t: TestPodtext;
  let smtp: Inbox;
  let audio: AudioServer;
  /** A podcast host serving real speech, allowed through the private-address guard. */
  let publisher: PublisherHost;
  let speech: Buffer;
  let browser: Browser;
  let site: string;
  const requested: string[] = [];
  /** What the pages' Content-Security-Policy refused: the site's own pages must need nothing it forbids. */
  const refusedByPolicy: string[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [smtp, audio, browser, publisher, speech] = await Promise.all([
      startSmtpInbox(),
      startAudioServer('Welcome to the show. Glad to be here. This is a longer sentence so the audio runs for several seconds.'),
      launchBrowser(),
      startPublisherHost(),
      spokenMp3(SHORT_PASSAGE),
    ]);
    // Podtext's own transcription worker, as in production.
    t = await startTestPodtext({ env: { SMTP_URL: smtp.url, WORKERS: '1', OUTBOUND_ALLOW: publisher.endpoint } });
    site = await t.podtext.listen();
    t.podtext.startWorkers();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await audio?.close();
    await publisher?.close();
    await smtp?.close();
  });

  /** A fresh visitor: its own cookies; every request it makes is recorded. */
  async function visitor(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: site });
    contexts.push(context);
    context.on('request', (r) => requested.push(r.url()));
    context.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refusedByPolicy.push(`${m.location().url}: ${m.text()}`);
    });
    return { context, page: await context.newPage() };
  }

  async function signedIn(key: string): Promise<{ context: BrowserContext; page: Page }> {
    const v = await visitor();
    await signInWith(v.page, key);
    return v;
  }

  async function credits(key: string): Promise<number> {
    return ((await (await t.api('GET', '/me', { key })).json()) as { credits: number }).credits;
  }

  async function expectAccessible(page: Page) {
    expect(await seriousAxeViolations(page), page.url()).toEqual([]);
  }

  it('registers, follows the mailed link, is signed in and sees the key once; /account and GET /me agree', async () => {
    const { page } = await visitor();
    await page.goto('/');
    expect(await page.title()).toBe('Podtext: podcast transcripts');
    // The price table's code spans read as code, not as Markdown backticks.
    expect(await page.locator('td code', { hasText: 'fast: true' }).count()).toBe(1);
    expect(await page.locator('table').first().textContent()).not.toContain('`');
    await expectAccessible(page);
    await page.fill('#email', 'web@example.com');
    await page.click('#register button');
    await expect.poll(() => page.textContent('#register-result')).toContain('Check your inbox');
    const mail = await smtp.next('web@example.com');
    // The answer is a page of its own: reloading it registers (and mails) nothing again.
    expect(new URL(page.url()).pathname).toBe('/');
    await page.reload();
    expect(await page.textContent('#register-result')).toContain('Check your inbox');
    await expect(smtp.next('web@example.com', 1500)).rejects.toThrow();
    const link = new URL(/https?:\/\/\S+confirm\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0]);
    // The mailed link names the configured site; open the same path on this server.
    await page.goto(`${link.pathname}${link.search}`);
    await expectAccessible(page);
    await page.click('#confirm');
    const key = (await page.locator('#api-key').textContent())!;
    expect(key).toMatch(/^ptk_/);
    await expectAccessible(page);
    await page.click('text=Go to my account');
    await page.waitForURL('**/account');
    expect(await page.locator('#api-key').count()).toBe(0);
    const shown = Number(await page.locator('[data-credits]').getAttribute('data-credits'));
    expect(shown).toBe(await credits(key));
    expect(await page.locator('#requests').textContent()).toMatch(/\d+ of \d+/);
    await expectAccessible(page);
  });

  it('search → show page → episode page; the locked episode unlocks from the same balance as the API', async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: sampleDoc(), title: 'Waffles and the wider world' });
    const showTitle = `Show ${ep.feedId}`;
    await t.podtext.services.discovery.showSearch.reload();
    const { page } = await signedIn(a.key);
    await page.goto('/');
    await page.fill('#q', showTitle);
    await page.press('#q', 'Enter');
    await page.click(`#results a:text-is("${showTitle}")`);
    await page.waitForURL(`**/shows/${ep.feedId}`);
    expect(await page.title()).toContain(showTitle);
    expect(await page.locator(`tr[data-transcript-id="${ep.transcriptId}"] .status`).textContent()).toBe('Transcript ready');
    await expectAccessible(page);
    await page.click('text=Waffles and the wider world');
    await page.waitForURL(`**/t/${ep.transcriptId}`);
    expect(await page.locator('h1').textContent()).toBe('Waffles and the wider world');
    await expectAccessible(page);
    const before = await credits(a.key);
    await page.click('[data-action="unlock"]');
    await page.waitForSelector('#transcript .w');
    expect(await page.locator('#flash').textContent()).toContain('Unlocked');
    expect(await credits(a.key)).toBe(before - 1);
    expect(await page.locator('#transcript .turn').count()).toBe(2);
    // The plain text is there for screen readers, the word spans hidden from them.
    expect(await page.locator('#transcript .sr-only').first().textContent()).toBe('Ada: Welcome to the show.');
    await expectAccessible(page);
    // The account lists it by its title and show, not by its id.
    await page.goto('/account');
    const listed = page.locator(`#unlocks li[data-transcript-id="${ep.transcriptId}"]`);
    expect(await listed.locator('a').textContent()).toBe('Waffles and the wider world');
    expect(await listed.textContent()).toContain(showTitle);
    // The API's page links lead here.
    const show = (await (await t.api('GET', `/shows/${ep.feedId}`, { key: a.key })).json()) as { url: string };
    expect((await t.request(new URL(show.url).pathname)).status).toBe(200);
  });

  it("an unlocked transcript downloads in the API's formats, each counted as one request; a locked one does not", async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    const locked = await addEpisode(t, { doc: sampleDoc() });
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    const requestsToday = async () => ((await (await t.api('GET', '/usage', { key: a.key })).json()) as { requests_today: number }).requests_today;
    const { page } = await signedIn(a.key);
    await page.goto(`/t/${ep.transcriptId}`);
    const before = await requestsToday();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('nav.downloads >> text=SRT')]);
    expect(download.suggestedFilename()).toBe(`${ep.transcriptId}.srt`);
    const srt = await (await fetch(`${site}/t/${ep.transcriptId}/download/srt`, { headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } })).text();
    const api = await (await t.api('GET', `/transcripts/${ep.transcriptId}?format=srt`, { key: a.key })).text();
    expect(srt).toBe(api);
    expect(srt).toMatch(/^1\r?\n00:00:0/);
    // The browser's download, the fetch and the API's read (three requests, as on the API), and this /usage.
    expect(await requestsToday()).toBe(before + 4);
    const refused = await page.goto(`/t/${locked.transcriptId}/download/txt`);
    expect(refused!.status()).toBe(402);
    // The public sample downloads without signing in.
    const sample = await fetch(`${site}/t/${sampleEpisode.transcriptId}/download/txt`);
    expect(sample.status).toBe(200);
    expect(sample.headers.get('content-disposition')).toBe(`attachment; filename="${sampleEpisode.transcriptId}.txt"`);
  });

  it('a browser unlock counts one request against the daily allowance the API shares; a spent allowance refuses it and spends nothing', async () => {
    const a = await t.account({ credits: 5 });
    const first = await addEpisode(t, { doc: sampleDoc() });
    const second = await addEpisode(t, { doc: sampleDoc() });
    const { page } = await signedIn(a.key);
    const requestsToday = async () => ((await (await t.api('GET', '/usage', { key: a.key })).json()) as { requests_today: number }).requests_today;
    const before = await requestsToday();
    // Two reads in a row differ by the read itself.
    expect(await requestsToday()).toBe(before + 1);
    await page.goto(`/t/${first.transcriptId}`);
    await page.click('[data-action="unlock"]');
    await page.waitForSelector('#transcript .w');
    // The read and the unlock; the pages viewed on the way count nothing.
    expect(await requestsToday()).toBe(before + 3);

    const usage = await t.api('GET', '/usage', { key: a.key });
    let left = Number(usage.headers.get('x-ratelimit-remaining'));
    expect(left).toBeGreaterThan(0);
    // Spend the rest of the day's allowance through the API (an unknown path still counts).
    while (left > 0) {
      const batch = Math.min(left, 50);
      await Promise.all(Array.from({ length: batch }, () => t.api('GET', '/nothing-here', { key: a.key })));
      left -= batch;
    }
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(429);
    const { db } = t.podtext.services;
    const creditsBefore = (await db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits;
    await page.goto(`/t/${second.transcriptId}`);
    const [refused] = await Promise.all([page.waitForResponse((r) => r.status() === 429), page.click('[data-action="unlock"]')]);
    // As the API's 429 does: when the allowance comes back.
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    await page.waitForSelector('h1:text-is("Daily request allowance spent")');
    expect(await page.title()).toBe('Daily request allowance spent · Podtext');
    expect(await page.locator('.error-box').textContent()).toContain('no credits were spent');
    expect((await db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(creditsBefore);
    expect(await db.unlock.count({ where: { accountId: a.accountId, transcriptId: second.transcriptId } })).toBe(0);
    await expectAccessible(page);
    // Pages still open (they count nothing); the account page's actions are refused the same way.
    await page.goto('/account');
    const secret = await page.locator('#webhook-secret').textContent();
    await page.click('button:text("Rotate the secret")');
    await page.waitForSelector('h1:text-is("Daily request allowance spent")');
    await page.goto('/account');
    expect(await page.locator('#webhook-secret').textContent()).toBe(secret);
  });

  it('a click (or Enter) on a word seeks the audio there; #t= seeks on load and marks the word being spoken', async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    await t.podtext.services.db.episode.update({ where: { transcriptId: ep.transcriptId }, data: { audioUrl: audio.url } });
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    const { page } = await signedIn(a.key);
    await page.goto(`/t/${ep.transcriptId}`);
    await page.waitForFunction(() => (document.getElementById('player') as HTMLAudioElement).readyState >= 1);
    const word = page.locator('#transcript .w[data-start="3"]');
    await word.click();
    const at = () => page.evaluate(() => (document.getElementById('player') as HTMLAudioElement).currentTime);
    await expect.poll(async () => Math.abs((await at()) - 3)).toBeLessThan(0.3);
    expect(await word.getAttribute('aria-current')).toBe('true');
    // Keyboard: from the paragraph's time button into the words, Enter seeks.
    await page.focus('#transcript .when >> nth=0');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(async () => Math.abs((await at()) - 0.6)).toBeLessThan(0.3);

    const fresh = await browser.newContext({ baseURL: site });
    contexts.push(fresh);
    fresh.on('request', (r) => requested.push(r.url()));
    await fresh.addCookies(await page.context().cookies());
    const linked = await fresh.newPage();
    await linked.goto(`/t/${ep.transcriptId}#t=3.5`);
    await expect.poll(() => linked.evaluate(() => (document.getElementById('player') as HTMLAudioElement).currentTime)).toBeGreaterThan(3.2);
    expect(Math.abs((await linked.evaluate(() => (document.getElementById('player') as HTMLAudioElement).currentTime)) - 3.5)).toBeLessThan(0.3);
    expect(await linked.locator('.w[aria-current]').getAttribute('data-start')).toBe('3.3');
    // Find in transcript.
    await linked.fill('#find', 'glad');
    await expect.poll(() => linked.textContent('#find-status')).toContain('1 match');
  });

  it('a transcription requested in the browser is done by a worker from spoken audio, and its job row turns done on the account page without a reload', async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { durationSeconds: 10, title: 'The weather report' });
    // The publisher's host holds the audio back until the account page is listening, so the change is seen live.
    let releaseAudio!: () => void;
    const audioReleased = new Promise<void>((resolve) => (releaseAudio = resolve));
    const fetchedBy: string[] = [];
    publisher.handle('/weather.mp3', (req, res) => {
      fetchedBy.push(req.headers['user-agent'] ?? '');
      void audioReleased.then(() => res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(speech.length) }).end(speech));
    });
    await t.podtext.services.db.episode.update({ where: { transcriptId: ep.transcriptId }, data: { audioUrl: publisher.url('/weather.mp3') } });
    const { page } = await signedIn(a.key);
    await page.goto(`/shows/${ep.feedId}`);
    await page.click('a[aria-label="Transcribe The weather report"]');
    await page.waitForURL(`**/t/${ep.transcriptId}#transcribe`);
    expect(await page.locator('[data-quote]').getAttribute('data-quote')).toBe('1');
    await expectAccessible(page);
    const listening = page.waitForResponse((r) => r.url().endsWith('/account/jobs/events'));
    await page.click('#transcribe button');
    await page.waitForURL('**/account?job=*');
    const row = page.locator('#jobs tbody tr').first();
    expect(['queued', 'processing']).toContain(await row.locator('.status').textContent());
    expect((await listening).status()).toBe(200);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    releaseAudio();
    // Podtext's own worker downloads the speech, recognises it and stores the words.
    await expect.poll(() => row.locator('.status').textContent(), { timeout: 150_000, interval: 250 }).toBe('done');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.locator('#jobs-live').textContent()).toContain('is done');
    // The page's player asked for the audio too; the worker's download is Podtext's own.
    expect(fetchedBy.filter((ua) => ua.startsWith('Podtext/'))).toHaveLength(1);
    await expectAccessible(page);
    await row.locator(`a[href="/t/${ep.transcriptId}"]`).click();
    await page.waitForSelector('#transcript .w');
    const heard = (await page.locator('#transcript .w').allTextContents()).join(' ');
    expect(wordErrorRate(SHORT_PASSAGE, heard)).toBeLessThanOrEqual(0.25);
  }, 200_000);

  it('rotating the key signs out every session of the old key; this browser continues with the new one', async () => {
    const a = await t.account({ credits: 2 });
    const one = await signedIn(a.key);
    const two = await signedIn(a.key);
    await one.page.click('#rotate');
    const fresh = (await one.page.locator('#api-key').textContent())!;
    expect(fresh).toMatch(/^ptk_/);
    expect(fresh).not.toBe(a.key);
    await two.page.goto('/account');
    expect(new URL(two.page.url()).pathname).toBe('/signin');
    await one.page.goto('/account');
    expect(new URL(one.page.url()).pathname).toBe('/account');
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(401);
    expect((await t.api('GET', '/me', { key: fresh })).status).toBe(200);
  });

  it('refuses a changing form without its CSRF token, and signs out', async () => {
    const a = await t.account({ credits: 2 });
    const { page } = await signedIn(a.key);
    const refused = await page.request.post('/account/key/rotate', { form: {}, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain('<title>Form refused · Podtext</title>');
    const forged = await page.request.post('/account/key/rotate', { form: { csrf: 'not-the-token' }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
    await page.click('header.top button:text("Sign out")');
    await page.waitForURL(site + '/');
    await page.goto('/account');
    expect(new URL(page.url()).pathname).toBe('/signin');
  });

  it('serves the API reference, the sample episode and error pages, all accessible and from this origin', async () => {
    const { page } = await visitor();
    await page.goto('/docs');
    await page.waitForSelector('.swagger-ui .opblock-tag', { timeout: 15_000 });
    expect(await page.title()).toBe('API reference · Podtext');
    await expectAccessible(page);
    await page.goto(`/t/${sampleEpisode.transcriptId}#t=10`);
    await page.waitForSelector('.w[aria-current]');
    expect(Number(await page.locator('.w[aria-current]').getAttribute('data-start'))).toBeLessThanOrEqual(10);
    await expectAccessible(page);
    const missing = await page.goto('/shows/999999999');
    expect(missing!.status()).toBe(404);
    expect(await page.title()).toBe('Not found · Podtext');
    await expectAccessible(page);
    const nowhere = await page.goto('/no/such/page');
    expect(nowhere!.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    const signin = await page.goto('/signin');
    expect(signin!.status()).toBe(200);
    await expectAccessible(page);
    // The key is a secret: not shown on screen for anyone behind the user, and offered to password managers.
    expect(await page.locator('#key').getAttribute('type')).toBe('password');
    expect(await page.locator('#key').getAttribute('autocomplete')).toBe('current-password');
  });

  it('opens GraphiQL from local assets, and a signed-in browser queries with its session', async () => {
    const a = await t.account({ credits: 7 });
    const { page } = await signedIn(a.key);
    const graphiql = await page.goto('/graphql');
    expect(graphiql!.headers()['content-type']).toContain('text/html');
    await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
    const me = await page.evaluate(async () => {
      const r = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { credits } }' }) });
      return r.json();
    });
    expect(me).toEqual({ data: { me: { credits: 7 } } });
  });

  it('fits a 375 px screen without sideways scrolling, long unbroken titles included', async () => {
    const a = await t.account({ credits: 2 });
    const long = await addEpisode(t, { doc: sampleDoc(), title: `Episode${'x'.repeat(300)}` });
    await t.podtext.services.db.show.update({ where: { id: long.feedId }, data: { title: `Show${'y'.repeat(300)}` } });
    const { page } = await signedIn(a.key);
    await page.setViewportSize({ width: 375, height: 800 });
    for (const path of ['/', '/signin', '/account', `/shows/${long.feedId}`, `/t/${sampleEpisode.transcriptId}`]) {
      await page.goto(path);
      const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect({ path, scroll }).toEqual({ path, scroll: width });
    }
  });

  it('copying paragraphs of a transcript gives each once, speaker and text apart', async () => {
    const { page } = await visitor();
    await page.goto(`/t/${sampleEpisode.transcriptId}`);
    const copied = await page.evaluate(() => {
      const paragraphs = document.querySelectorAll('#transcript p');
      const range = document.createRange();
      range.setStartBefore(paragraphs[0]!);
      range.setEndAfter(paragraphs[Math.min(2, paragraphs.length - 1)]!);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    });
    const firstWords = (await page.locator('#transcript p .sr-only').first().textContent())!.replace(/^[^:]*: /, '').split(' ').slice(0, 6).join(' ');
    expect(copied.split(firstWords).length - 1).toBe(1);
    // A speaker label is set off from the words (it read "SPEAKER 1This").
    expect(copied).not.toMatch(/\S[A-Z][a-z]/);
  });

  it("no page needed anything its Content-Security-Policy refuses", () => {
    expect(refusedByPolicy).toEqual([]);
  });

  it('no page asked for anything outside its own origin, except the episode audio', () => {
    // Episodes' own audio: the local speech files, and the made-up host the other test episodes name.
    // The sample's audio is Podtext's own, at SITE_URL: in production the site's origin, here podtext.test.
    const sampleAudio = `${t.podtext.services.links.site}/sample/audio.mp3`;
    const ownAudio = (u: string) => u === audio.url || u === publisher.url('/weather.mp3') || u.startsWith('https://media.example/') || u === sampleAudio;
    const outside = requested.filter((u) => !u.startsWith(site) && !ownAudio(u) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(requested.length).toBeGreaterThan(20);
    expect(outside).toEqual([]);
  });
});
