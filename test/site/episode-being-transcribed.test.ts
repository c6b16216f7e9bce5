import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveTranscript } from '../../src/core/transcripts/transcript-store.js';
import { inTransaction } from '../../src/core/transaction.js';
import { seriousAxeViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Someone opens an episode while it is being transcribed and waits on that page.
describe('the page of an episode being transcribed', () => {
  let t: TestPodtext;
  let browser: Browser;
  let site: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestPodtext({ env: { WORKERS: '0' } }), launchBrowser()]);
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function transcribing() {
    const ep = await addEpisode(t, { title: 'Being transcribed' });
    await t.podtext.services.db.episode.update({ where: { transcriptId: ep.transcriptId }, data: { transcriptStatus: 'processing' } });
    return ep;
  }

  async function open(path: string, javaScriptEnabled = true) {
    const context = await browser.newContext({ baseURL: site, javaScriptEnabled });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(path);
    return page;
  }

  it('shows what is done once it is done, without a reload by the reader', async () => {
    const ep = await transcribing();
    const page = await open(`/t/${ep.transcriptId}`);
    await expect.poll(() => page.locator('#transcribing').textContent()).toContain('appears here once it is done');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await inTransaction(t.podtext.services.db, (tx) => saveTranscript(tx, { transcriptId: ep.transcriptId, doc: sampleDoc(), source: 'publisher' }));
    // Before, the page kept saying so until the reader reloaded it.
    await page.waitForSelector('#locked', { timeout: 15_000 });
    expect(await page.locator('#transcribing').count()).toBe(0);
  }, 30_000);

  it('without JavaScript, tells the reader to reload once it is done rather than promise it will appear', async () => {
    const ep = await transcribing();
    const page = await open(`/t/${ep.transcriptId}`, false);
    const note = (await page.locator('#transcribing').innerText()).trim();
    expect(note).not.toContain('appears here');
    expect(note).toContain('Reload this page once it is done');
  });
});
