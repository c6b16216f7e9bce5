import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { postRequest } from '../jobs/support/jobs-api.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// The account page's live job rows (`/account/jobs/events`) over a real socket:
// once a browser is signed out, by a key rotation or by signing out, nothing
// more of the account reaches it.
describe('the account page’s live job rows after the browser is signed out', () => {
  let t: TestPodtext;
  let audio: AudioServer;
  let site: string;

  beforeAll(async () => {
    audio = await startAudioServer();
    // No workers: the jobs stay queued, which is all the rows need.
    t = await startTestPodtext({ env: { WORKERS: '0', OUTBOUND_ALLOW: audio.endpoint } });
    site = await t.podtext.listen();
  });
  afterAll(async () => {
    await t?.close();
    await audio?.close();
  });

  async function signIn(key: string, at = site): Promise<string> {
    const res = await fetch(`${at}/signin`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
    expect(res.status).toBe(303);
    return res.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
  }

  /** Reads the event stream as it comes; `ended` settles when the server closes it. */
  async function listen(cookie: string, at = site) {
    const res = await fetch(`${at}/account/jobs/events`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const state = { text: '', ended: false };
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.text += Buffer.from(value).toString();
      }
      state.ended = true;
    })();
    return { state, ended, stop: () => reader.cancel().catch(() => undefined) };
  }

  const requestJob = async (key: string) => {
    const r = await postRequest(t, key, { episodes: [{ guid: newGuid('live'), url: audio.url('/never-fetched.mp3') }] });
    expect(r.status).toBe(200);
    return r.body.job.id as string;
  };

  it('ends when the key is rotated, and the new key’s jobs never reach the old session', async () => {
    const a = await t.account({ credits: 5 });
    const live = await listen(await signIn(a.key));
    try {
      const before = await requestJob(a.key);
      await expect.poll(() => live.state.text).toContain(`"id":"${before}"`);
      const rotated = await t.api('POST', '/key/rotate', { key: a.key });
      expect(rotated.status).toBe(200);
      const { key } = (await rotated.json()) as { key: string };
      await expect.poll(() => live.state.ended, { timeout: 5_000 }).toBe(true);
      const after = await requestJob(key);
      await new Promise((r) => setTimeout(r, 300));
      expect(live.state.text).not.toContain(after);
    } finally {
      await live.stop();
    }
  });

  it('sends nothing more to a session that has signed out', async () => {
    const a = await t.account({ credits: 5 });
    const cookie = await signIn(a.key);
    const live = await listen(cookie);
    try {
      const before = await requestJob(a.key);
      await expect.poll(() => live.state.text).toContain(`"id":"${before}"`);
      // Signed out through the site, as the page's button does, with the session's form token.
      const page = await (await fetch(`${site}/account`, { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
      const out = await fetch(`${site}/signout`, { method: 'POST', headers: { cookie, origin: site }, body: new URLSearchParams({ csrf }), redirect: 'manual' });
      expect(out.status).toBe(303);
      const after = await requestJob(a.key);
      await expect.poll(() => live.state.ended, { timeout: 5_000 }).toBe(true);
      expect(live.state.text).not.toContain(after);
    } finally {
      await live.stop();
    }
  });

  it('ends as soon as the server begins to stop, so an open account page does not hold a deploy for the grace period', async () => {
    const own = await startTestPodtext({ env: { WORKERS: '0' } });
    try {
      const at = await own.podtext.listen();
      const a = await own.account({ credits: 5 });
      const live = await listen(await signIn(a.key, at), at);
      const started = Date.now();
      const { cutOff } = await own.podtext.stop({ graceMs: 10_000 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(cutOff).toBe(0);
      await expect.poll(() => live.state.ended, { timeout: 2_000 }).toBe(true);
    } finally {
      await rm(own.dataDir, { recursive: true, force: true });
    }
  });
});
