import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { seriousAxeViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// The transcript page's find, copy-a-link and time buttons work only through
// its script: a browser that runs no script must not be shown controls that
// do nothing. Chromium is required: without it these tests fail rather than skip.
describe('the transcript page with and without JavaScript', () => {
  let t: TestPodtext;
  let browser: Browser;
  let site: string;
  const contexts: BrowserContext[] = [];
  const transcript = `/t/${sampleEpisode.transcriptId}`;
  const controls = ['#find', '#copy-moment', '#transcript .when >> nth=0'];

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestPodtext(), launchBrowser()]);
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function open(options: { javaScriptEnabled?: boolean; blockScript?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ baseURL: site, javaScriptEnabled: options.javaScriptEnabled ?? true });
    contexts.push(context);
    if (options.blockScript) await context.route('**/assets/episode.js', (r) => r.abort());
    const page = await context.newPage();
    await page.goto(transcript);
    return page;
  }

  it('with JavaScript disabled: the transcript reads, with each paragraph’s time as text, and no find, copy or time buttons', async () => {
    const page = await open({ javaScriptEnabled: false });
    expect(await page.locator('#transcript .w').first().isVisible()).toBe(true);
    for (const control of controls) expect(await page.locator(control).isVisible(), control).toBe(false);
    expect(await page.locator('#transcript .at').first().isVisible()).toBe(true);
    expect(await page.locator('#transcript .at').first().textContent()).toMatch(/^\d+:\d\d$/);
  });

  it('when the script does not arrive, the page is the same and accessible', async () => {
    const page = await open({ blockScript: true });
    for (const control of controls) expect(await page.locator(control).isVisible(), control).toBe(false);
    expect(await page.locator('#transcript .at').first().isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('with JavaScript: the controls are there, the time texts are not, and they work', async () => {
    const page = await open();
    await page.waitForFunction(() => document.documentElement.classList.contains('js'));
    for (const control of controls) expect(await page.locator(control).isVisible(), control).toBe(true);
    expect(await page.locator('#transcript .at').first().isVisible()).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // From a later word, the paragraph's time button seeks back to its start; the address names the moment.
    const later = page.locator('#transcript .w').nth(20);
    await later.click();
    expect(await later.getAttribute('aria-current')).toBe('true');
    const turn = page.locator('#transcript .turn').first();
    const start = await turn.locator('.when').getAttribute('data-start');
    await turn.locator('.when').click();
    expect(await turn.locator('.w').first().getAttribute('aria-current')).toBe('true');
    expect(await later.getAttribute('aria-current')).toBeNull();
    expect(new URL(page.url()).hash).toBe(`#t=${Math.floor(Number(start))}`);
    // Find in the transcript.
    const word = (await page.locator('#transcript .w').nth(3).textContent())!.replace(/[^\p{L}\p{N}']/gu, '');
    await page.fill('#find', word);
    await expect.poll(() => page.textContent('#find-status')).toMatch(/\d+ match/);
    // Copy a link to this moment (shown when the clipboard is not available).
    await page.click('#copy-moment');
    await expect.poll(() => page.textContent('#moment-out')).toContain(`${site}${transcript}#t=${Math.floor(Number(start))}`);
  });
});
