import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { seriousAxeViolations } from '../support/axe.js';
import { launchBrowser, signInWith } from '../support/browser.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// A job whose episode could not be transcribed is `done` like any other; its
// row on the account page must not read as a success with nothing to open.
describe('a job row on the account page whose episode could not be transcribed', () => {
  let t: TestPodtext;
  let audio: AudioServer;
  let browser: Browser;
  let site: string;

  beforeAll(async () => {
    [audio, browser] = await Promise.all([startAudioServer(), launchBrowser()]);
    t = await startTestPodtext({
      env: { WORKERS: '1', OUTBOUND_ALLOW: audio.endpoint },
      // One short attempt: a missing file fails in a second.
      jobs: { options: { maxAttempts: 1, retryDelaySeconds: 0.1 }, workers: { pollMs: 200 } },
    });
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await audio?.close();
  });

  it('says, live and after a reload, that the episode was not transcribed and why, and that it was refunded', async () => {
    const a = await t.account({ credits: 5 });
    const context = await browser.newContext({ baseURL: site });
    try {
      const page = await context.newPage();
      await signInWith(page, a.key);
      const listening = page.waitForResponse((r) => r.url().endsWith('/account/jobs/events'));
      await page.reload();
      await listening;

      const episode = { guid: newGuid('gone'), url: audio.url('/gone.mp3'), title: 'The lost episode' };
      const r = await postRequest(t, a.key, { episodes: [episode] });
      expect(r.status).toBe(200);
      // Asked again before it is done: this job waits on the first one's work and is charged nothing.
      const again = await postRequest(t, a.key, { episodes: [episode] });
      expect(again.body.credits_charged).toBe(0);
      // The balance follows the jobs live too: charged when asked, given back when refunded.
      await expect.poll(() => page.locator('#credits').textContent(), { timeout: 10_000 }).toBe('4');
      t.podtext.startWorkers();
      const job = await jobDone(t, a.key, r.body.job.id as string);
      expect(job.episodes[0]).toMatchObject({ status: 'failed', error: 'download: server answered 404' });
      expect(job.credits_refunded).toBe(1);

      // Live, without a reload.
      const row = page.locator(`#jobs tr[data-job-id="${job.id as string}"]`);
      await expect.poll(() => row.locator('td').nth(1).textContent(), { timeout: 10_000 }).toBe('The lost episode not transcribed (download: server answered 404); refunded');
      expect(await row.locator('.status.failed').count()).toBe(1);
      expect(await row.locator('[data-status]').textContent()).toBe('done');
      await expect.poll(() => page.locator('#credits').textContent(), { timeout: 10_000 }).toBe('5');
      // And as the page is drawn, with JavaScript or without.
      await page.reload();
      expect(await row.locator('td').nth(1).textContent()).toBe('The lost episode not transcribed (download: server answered 404); refunded');
      const joined = page.locator(`#jobs tr[data-job-id="${again.body.job.id as string}"] td`).nth(1);
      expect(await joined.textContent()).toBe('The lost episode not transcribed (download: server answered 404); nothing was charged');
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
