import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { launchBrowser } from '../support/browser.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';

// A real browser against a real server: what a person on the website does.
describe('the website in Chromium', () => {
  let t: TestPodtext;
  let smtp: Inbox;
  let browser: Browser;
  let site: string;
  beforeAll(async () => {
    smtp = await startSmtpInbox();
    t = await startTestPodtext({ env: { SMTP_URL: smtp.url } });
    site = await t.podtext.listen();
    t.podtext.startWorkers();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
    await smtp.close();
  });

  it('registers from the home page and shows the key after the emailed link', async () => {
    const page = await browser.newPage();
    await page.goto(site);
    await page.fill('input[name=email]', 'web@example.com');
    await page.click('#register button');
    await expect.poll(() => page.textContent('#register-result')).toContain('Check your inbox');
    const mail = await smtp.next('web@example.com');
    const link = /https?:\/\/\S+confirm\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
    // The mailed link names the configured site; open the same path on this server.
    await page.goto(`${site}${new URL(link).pathname}${new URL(link).search}`);
    await page.click('#confirm');
    const key = await page.locator('#api-key').textContent({ timeout: 10_000 });
    expect(key).toMatch(/^ptk_/);
    expect((await t.api('GET', '/me', { key: key! })).status).toBe(200);
    await page.close();
  });

  it('the public sample page shows its transcript and jumps to #t=', async () => {
    const page = await browser.newPage();
    await page.goto(`${site}/t/${sampleEpisode.transcriptId}#t=10`);
    await page.waitForSelector('.seg');
    const now = await page.locator('.seg.now').getAttribute('data-start');
    expect(Number(now)).toBeLessThanOrEqual(10);
    const starts = await page.locator('.seg').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.start)));
    const next = starts.find((s) => s > Number(now));
    expect(next === undefined || next > 10).toBe(true);
    await page.close();
  });

  it('a locked episode asks for a key, then shows the transcript once unlocked', async () => {
    const a = await t.account({ credits: 1 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    const page = await browser.newPage();
    await page.goto(`${site}/t/${ep.transcriptId}`);
    await page.waitForSelector('#key-form:not([hidden])');
    await page.fill('#key-form input[name=key]', a.key);
    await page.click('#key-form button');
    await expect.poll(() => page.locator('.seg').count()).toBe(2);
    expect(await page.locator('.seg').first().textContent()).toContain('Ada:Welcome to the show.');
    await page.close();
  });
});
