import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// An answer that carries a key or a webhook signing secret must not be kept
// by a browser's HTTP cache or a proxy, on any transport: a page calling the
// API with fetch would otherwise leave the secret on disk.
let t: TestPodtext;

beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(async () => {
  await t?.close();
});

async function graphql(key: string, query: string, method: 'GET' | 'POST' = 'POST'): Promise<Response> {
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  if (method === 'GET') return t.request(`/graphql?query=${encodeURIComponent(query)}`, { headers });
  return t.request('/graphql', { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
}

describe('answers carrying secrets', () => {
  it('say Cache-Control: no-store over REST', async () => {
    const a = await t.account();
    const secret = await t.api('GET', '/webhooks/secret', { key: a.key });
    expect(secret.status).toBe(200);
    expect(secret.headers.get('cache-control')).toBe('no-store');
    const rotatedSecret = await t.api('POST', '/webhooks/secret', { key: a.key });
    expect(rotatedSecret.status).toBe(200);
    expect(rotatedSecret.headers.get('cache-control')).toBe('no-store');
    const rotated = await t.api('POST', '/key/rotate', { key: a.key });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    // Answers without secrets keep their own caching rules.
    expect((await t.api('GET', '/me', { key: ((await rotated.json()) as { key: string }).key })).headers.get('cache-control')).toBeNull();
  });

  it('say Cache-Control: no-store over GraphQL, GET included', async () => {
    const a = await t.account();
    const read = await graphql(a.key, '{ webhookSecret { secret } }', 'GET');
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { webhookSecret: { secret: string } } }).data.webhookSecret.secret).toMatch(/^whsec_/);
    expect(read.headers.get('cache-control')).toBe('no-store');
    const rotated = await graphql(a.key, 'mutation { rotateKey { key } }');
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
  });
});
