import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

describe('keys', () => {
  it('accepts Authorization: Bearer and X-Api-Key', async () => {
    const a = await t.account();
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
    expect((await t.api('GET', '/me', { headers: { 'x-api-key': a.key } })).status).toBe(200);
    expect((await t.api('GET', '/me', { key: a.key, headers: { 'x-api-key': a.key } })).status).toBe(200);
  });

  it('both headers with different keys: 400; missing or unknown key: 401', async () => {
    const a = await t.account();
    const b = await t.account();
    const both = await t.api('GET', '/me', { key: a.key, headers: { 'x-api-key': b.key } });
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: { code: string } }).error.code).toBe('conflicting_keys');
    expect((await t.api('GET', '/me')).status).toBe(401);
    expect((await t.api('GET', '/me', { key: 'ptk_' + 'x'.repeat(43) })).status).toBe(401);
    expect((await t.api('GET', '/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('rotation retires the old key on the very next request, by both headers, and keeps credits and plan', async () => {
    const a = await t.account({ credits: 7, plan: 'pro' });
    // Warm the caches first: the old key must fail even when cached.
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
    const rotated = await t.api('POST', '/key/rotate', { key: a.key });
    expect(rotated.status).toBe(200);
    const { key } = (await rotated.json()) as { key: string };
    expect(key).not.toBe(a.key);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(401);
    expect((await t.api('GET', '/me', { headers: { 'x-api-key': a.key } })).status).toBe(401);
    const me = (await (await t.api('GET', '/me', { key })).json()) as { credits: number; plan: string };
    expect(me).toMatchObject({ credits: 7, plan: 'pro' });
    expect((await t.gql('{ me { credits } }', {}, a.key)).body.errors?.[0]?.extensions?.code).toBe('unauthorized');
  });

  it('rotations sent at once with one key: one key comes back, and it works; the others are refused as retired', async () => {
    const a = await t.account({ credits: 3 });
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
    const answers = await Promise.all([1, 2, 3, 4].map(() => t.api('POST', '/key/rotate', { key: a.key })));
    const issued: string[] = [];
    for (const res of answers) {
      const body = (await res.json()) as { key?: string; error?: { code: string } };
      if (res.status === 200) issued.push(body.key!);
      else expect([res.status, body.error?.code]).toEqual([401, 'unauthorized']);
    }
    // Every key handed out must be one the client can use: never a key a rotation beside it already retired.
    expect(issued).toHaveLength(1);
    expect((await t.api('GET', '/me', { key: issued[0] })).status).toBe(200);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(401);
  });

  it('billing portal: 400 for a key that never subscribed', async () => {
    const a = await t.account();
    const res = await t.api('POST', '/billing/portal', { key: a.key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_subscribed');
  });
});
