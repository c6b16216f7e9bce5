import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// What a signed-in browser is sent: nothing a cache may keep, and refusals
// that say what went wrong.
describe('a signed-in browser', () => {
  let t: TestPodtext;

  beforeAll(async () => {
    t = await startTestPodtext();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signedIn(): Promise<{ cookie: string; csrf: string }> {
    const a = await t.account({ credits: 5 });
    const res = await t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: a.key }).toString(), redirect: 'manual' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
    const page = await (await t.request('/account', { headers: { cookie } })).text();
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]! };
  }

  it('gets every page, and every download, as private, no-store', async () => {
    const { cookie } = await signedIn();
    // Pages that hand a visitor a form token (no-cache) carry the session's sign-out form once signed in.
    for (const path of ['/', '/signin', '/confirm?token=x', '/account', `/t/${sampleEpisode.transcriptId}`, `/t/${sampleEpisode.transcriptId}/download/txt`]) {
      const res = await t.request(path, { headers: { cookie } });
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
    }
    // A visitor's sign-in page may be revalidated; the public sample's download is not the session's.
    expect((await t.request('/signin')).headers.get('cache-control')).toBe('private, no-cache');
    expect((await t.request(`/t/${sampleEpisode.transcriptId}/download/txt`)).headers.get('cache-control')).not.toBe('private, no-store');
  });

  it('is told a refused action is a bad request (400), not that the page was not found', async () => {
    const { cookie, csrf } = await signedIn();
    const ep = await addEpisode(t, { title: 'No audio here' });
    await t.podtext.services.db.episode.update({ where: { transcriptId: ep.transcriptId }, data: { audioUrl: null } });
    const res = await t.request(`/t/${ep.transcriptId}/transcribe`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf }).toString() });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('That did not work');
    expect(html).toContain('This episode has no audio to transcribe.');
    // A page address that names nothing is still not found.
    expect((await t.request('/t/not-an-id', { headers: { cookie } })).status).toBe(404);
  });

  it('keeps Account and Sign out in the navigation of a refusal or a missing page, so it does not read as signed out', async () => {
    const { cookie, csrf } = await signedIn();
    const broke = await t.account({ credits: 0 });
    const ep = await addEpisode(t, { doc: sampleDoc(), title: 'Out of reach' });
    const signin = await t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: broke.key }).toString(), redirect: 'manual' });
    const brokeCookie = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
    const brokeCsrf = /name="csrf" value="([^"]+)"/.exec(await (await t.request('/account', { headers: { cookie: brokeCookie } })).text())![1]!;
    const form = (token: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf: token }).toString() });
    const pages: [string, Response][] = [
      ['unlock without credits', await t.request(`/t/${ep.transcriptId}/unlock`, { ...form(brokeCsrf), headers: { ...form(brokeCsrf).headers, cookie: brokeCookie } })],
      ['unlock of nothing', await t.request('/t/0123456789abcdef/unlock', { ...form(csrf), headers: { ...form(csrf).headers, cookie } })],
      ['a missing page', await t.request('/no/such/page', { headers: { cookie } })],
      ['a missing show', await t.request('/shows/123456789', { headers: { cookie } })],
    ];
    for (const [what, res] of pages) {
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      const html = await res.text();
      expect(html, what).toContain('<a href="/account">Account</a>');
      expect(html, what).toContain('action="/signout"');
      expect(html, what).not.toContain('href="/signin"');
    }
    expect(pages[0]![1].status).toBe(402);
    // A visitor's missing page offers to sign in.
    expect(await (await t.request('/no/such/page')).text()).toContain('<a href="/signin">Sign in</a>');
  });

  it("signs out from a second tab after the first already did: home, not a refused form; another site's post is still refused", async () => {
    const { cookie, csrf } = await signedIn();
    const signOut = (headers: Record<string, string>) =>
      t.request('/signout', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers }, body: new URLSearchParams({ csrf }).toString(), redirect: 'manual' });
    const first = await signOut({ cookie });
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/^podtext_session=;/);
    // The browser dropped its cookie; the other tab's form still carries the old token.
    const second = await signOut({});
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe('/');
    expect((await signOut({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('is told a download refused for a spent daily allowance as an action is: when it comes back (Retry-After) and that nothing was spent', async () => {
    const { cookie } = await signedIn();
    const a = await t.account({ credits: 1 });
    const signin = await t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: a.key }).toString(), redirect: 'manual' });
    const spent = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
    let left = Number((await t.api('GET', '/usage', { key: a.key })).headers.get('x-ratelimit-remaining'));
    while (left > 0) {
      const batch = Math.min(left, 50);
      await Promise.all(Array.from({ length: batch }, () => t.api('GET', '/nothing-here', { key: a.key })));
      left -= batch;
    }
    const res = await t.request(`/t/${sampleEpisode.transcriptId}/download/txt`, { headers: { cookie: spent } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const html = await res.text();
    expect(html).toContain('<title>Daily request allowance spent · Podtext</title>');
    expect(html).toContain('no credits were spent');
    // Another account's allowance is its own.
    expect((await t.request(`/t/${sampleEpisode.transcriptId}/download/txt`, { headers: { cookie } })).status).toBe(200);
  });
});
