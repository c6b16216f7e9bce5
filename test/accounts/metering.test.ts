import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans } from '../../src/core/pricing.js';
import { fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

const clock = fakeClock('2026-06-01T23:50:00Z');
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext({ clock });
});
afterAll(() => t.close());

const remaining = (res: Response) => Number(res.headers.get('x-ratelimit-remaining'));

describe('request metering', () => {
  it('request N passes, N+1 gets 429; remaining strictly decreases and never goes negative; resets at 00:00 UTC', async () => {
    const a = await t.account();
    const limit = plans.free.dailyRequests;
    let last = Infinity;
    for (let i = 1; i <= limit; i++) {
      const res = await t.api('GET', '/me', { key: a.key });
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(limit);
      const r = remaining(res);
      expect(r).toBe(limit - i);
      expect(r).toBeLessThan(last);
      last = r;
      if (r === 7) {
        // A document needing more requests than remain says so (the allowance is not spent), and counts nothing.
        const many = await t.gql(`{ ${Array.from({ length: 10 }, (_, k) => `a${k}: me { credits }`).join(' ')} }`, {}, a.key);
        expect(many.body.errors?.[0]?.extensions?.code).toBe('rate_limited');
        expect(many.body.errors?.[0]?.message).toMatch(/^This operation needs 10 requests; 7 of the daily allowance of 1000 remain/);
      }
    }
    const over = await t.api('GET', '/me', { key: a.key });
    expect(over.status).toBe(429);
    expect(remaining(over)).toBe(0);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    // 23:50 UTC: the allowance resets in ten minutes, and clients are told when.
    expect(over.headers.get('retry-after')).toBe('600');
    const overGql = await t.gql('{ me { credits } }', {}, a.key);
    expect(overGql.body.errors?.[0]?.extensions?.code).toBe('rate_limited');
    expect(overGql.headers.get('retry-after')).toBe('600');

    clock.set('2026-06-02T00:00:00Z');
    const fresh = await t.api('GET', '/me', { key: a.key });
    expect(fresh.status).toBe(200);
    expect(remaining(fresh)).toBe(limit - 1);
    clock.set('2026-06-01T23:50:00Z');
  }, 120_000);

  it('keyless calls count 0 and still carry the headers', async () => {
    const res = await t.api('POST', '/register/start', { body: { email: 'meter@example.com' } });
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it('GraphQL counts one per root field: aliases and batches cannot get around it', async () => {
    const a = await t.account();
    const one = await t.gql('{ me { credits } }', {}, a.key);
    expect(remaining({ headers: one.headers } as Response)).toBe(plans.free.dailyRequests - 1);
    const aliased = await t.gql('{ a: me { credits } b: me { credits } c: usage { requestsToday } ...F } fragment F on Query { d: me { plan } }', {}, a.key);
    expect(aliased.body.errors).toBeUndefined();
    expect(remaining({ headers: aliased.headers } as Response)).toBe(plans.free.dailyRequests - 5);
    const batch = await t.request('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ me { credits } }' }, { query: '{ x: me { credits } y: me { plan } }' }]),
    });
    expect(batch.status).toBe(200);
    await t.podtext.services.metering.flush();
    const usage = (await (await t.api('GET', '/usage', { key: a.key })).json()) as { requests_today: number };
    expect(usage.requests_today).toBe(1 + 4 + 3 + 1);
  });

  it('usage reports allowance, remaining credits, requests and the ledger', async () => {
    const a = await t.account({ credits: 4 });
    const usage = (await (await t.api('GET', '/usage', { key: a.key })).json()) as Record<string, unknown>;
    expect(usage).toMatchObject({ plan: 'free', credits_allowance: 10, credits_remaining: 4, requests_today: 1, request_limit: 1000, requests_remaining: 999 });
    expect(usage.ledger).toEqual([expect.objectContaining({ kind: 'grant', amount: 4, balance_after: 4 })]);
  });
});
