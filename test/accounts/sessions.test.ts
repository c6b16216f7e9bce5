import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_LIFETIME_DAYS } from '../../src/core/accounts/sessions.js';
import { fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Website sign-ins: what a browser's cookie can and cannot do.
describe('website sessions', () => {
  const clock = fakeClock();
  let t: TestPodtext;
  beforeAll(async () => {
    t = await startTestPodtext({ clock });
  });
  afterAll(async () => t?.close());

  it('a session acts as its key’s account, and its CSRF token is its own', async () => {
    const a = await t.account();
    const { sessions } = t.podtext.services;
    const s = await sessions.create(a.key);
    expect((await sessions.authenticate(s.token)).accountId).toBe(a.accountId);
    expect(sessions.checkCsrf(s.token, s.csrf)).toBe(true);
    const other = await sessions.create(a.key);
    expect(sessions.checkCsrf(s.token, other.csrf)).toBe(false);
    expect(sessions.checkCsrf(s.token, '')).toBe(false);
    // Only a hash is stored: the token itself is nowhere in the table.
    const rows = await t.podtext.services.db.siteSession.findMany({ where: { accountId: a.accountId } });
    expect(rows.some((r) => r.tokenHash === s.token)).toBe(false);
  });

  it('an unknown key opens nothing; an unknown token is unauthorized', async () => {
    const { sessions } = t.podtext.services;
    await expect(sessions.create('ptk_' + 'x'.repeat(43))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(sessions.authenticate('nope')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('rotating the key ends every session opened with it', async () => {
    const a = await t.account();
    const { sessions, keys } = t.podtext.services;
    const one = await sessions.create(a.key);
    const two = await sessions.create(a.key);
    const { key } = await keys.rotate(await keys.authenticate(a.key));
    await expect(sessions.authenticate(one.token)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(sessions.authenticate(two.token)).rejects.toMatchObject({ code: 'unauthorized' });
    const fresh = await sessions.create(key);
    expect((await sessions.authenticate(fresh.token)).accountId).toBe(a.accountId);
    expect(await sessions.prune()).toBeGreaterThanOrEqual(2);
  });

  it('expires after its lifetime, and ends when signed out', async () => {
    const a = await t.account();
    const { sessions } = t.podtext.services;
    const s = await sessions.create(a.key);
    const out = await sessions.create(a.key);
    await sessions.revoke(out.token);
    await expect(sessions.authenticate(out.token)).rejects.toMatchObject({ code: 'unauthorized' });
    clock.advance(SESSION_LIFETIME_DAYS * 86_400_000 - 1000);
    expect((await sessions.authenticate(s.token)).accountId).toBe(a.accountId);
    clock.advance(2000);
    await expect(sessions.authenticate(s.token)).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
