import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signInWith } from '../support/browser.js';
import { addEpisode } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// A person on a slow connection double-clicks a button: the first click's
// answer is still on its way when the second one comes.
describe('a form button clicked twice on a slow connection', () => {
  let t: TestPodtext;
  let browser: Browser;
  let site: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    // No workers: a requested episode stays queued, so every job it made can be counted.
    t = await startTestPodtext({ env: { WORKERS: '0' } });
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedIn(key: string): Promise<Page> {
    const context = await browser.newContext({ baseURL: site });
    const page = await context.newPage();
    await signInWith(page, key);
    return page;
  }

  /** Two clicks 120 ms apart while every answer takes 300 ms to arrive; how many posts reached Podtext. */
  async function doubleClick(page: Page, selector: string): Promise<number> {
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST') posts += 1;
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 300, downloadThroughput: -1, uploadThroughput: -1 });
    const button = page.locator(selector);
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(120);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForLoadState('load');
    await page.waitForTimeout(1_500);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    return posts;
  }

  it('Rotate my key rotates once and shows the new key, which works; the browser stays signed in', async () => {
    const a = await t.account({ credits: 1 });
    const page = await signedIn(a.key);
    expect(await doubleClick(page, '#rotate')).toBe(1);
    // Before, the second post came with the session the first had ended: the sign-in page, the new key never shown.
    expect(new URL(page.url()).pathname).toBe('/account/key/rotate');
    const shown = (await page.locator('#api-key').textContent())!;
    expect((await t.api('GET', '/me', { key: shown })).status).toBe(200);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(401);
    await page.goto('/account');
    expect(new URL(page.url()).pathname).toBe('/account');
  });

  it('Transcribe makes one job (one mail when it is done), charged once', async () => {
    const a = await t.account({ credits: 3 });
    const ep = await addEpisode(t, { title: 'Clicked twice', durationSeconds: 600 });
    const page = await signedIn(a.key);
    await page.goto(`/t/${ep.transcriptId}`);
    expect(await doubleClick(page, '#transcribe button')).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/account');
    const jobs = await t.podtext.services.db.job.count({ where: { accountId: a.accountId } });
    expect(jobs).toBe(1);
    expect(((await (await t.api('GET', '/me', { key: a.key })).json()) as { credits: number }).credits).toBe(2);
  });

  it('a form sent once can be sent again after coming back to its page', async () => {
    const a = await t.account({ credits: 1 });
    const page = await signedIn(a.key);
    await page.click('form[action="/account/webhook-secret/rotate"] button');
    await page.waitForURL('**/account?done=secret');
    await page.goBack();
    await page.click('form[action="/account/webhook-secret/rotate"] button');
    await page.waitForURL('**/account?done=secret');
  });

  it('reloading the page a rotation answered with is refused with a way back to the account, not a request to reload again', async () => {
    const a = await t.account({ credits: 1 });
    const page = await signedIn(a.key);
    await page.click('#rotate');
    await page.waitForSelector('#api-key');
    // The reload posts the form again, with the token of the session the rotation replaced: refused, nothing done.
    const again = await page.reload();
    expect(again!.status()).toBe(403);
    const message = await page.locator('.error-box').textContent();
    expect(message).toContain('nothing was done');
    expect(message).not.toContain('reload');
    // Still signed in, and one click from the page the form was on.
    expect(await page.locator('header.top a[href="/account"]').count()).toBe(1);
    await page.click('main a:text("Open the page again")');
    await page.waitForURL('**/account');
  });
});
