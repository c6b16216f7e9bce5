import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Mutation fields are non-null: had a document of several run, one failing field
// would null the whole `data`, hiding what the others did (credits charged, a key rotated).
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

async function post(query: string, key: string) {
  const res = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] } };
}

async function balance(accountId: string) {
  const { db } = t.podtext.services;
  return { credits: (await db.account.findUniqueOrThrow({ where: { id: accountId } })).credits, unlocks: await db.unlock.count({ where: { accountId } }) };
}

describe('a mutation runs one field', () => {
  it('several paid fields: refused before any runs, nothing charged', async () => {
    const held = await addEpisode(t, { doc: sampleDoc() });
    const a = await t.account({ credits: 7 });
    const r = await post(`mutation { a: unlock(transcriptId: "${held.transcriptId}") { credits } b: unlock(transcriptId: "0000000000000000") { credits } }`, a.key);
    expect(r.status).toBe(400);
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors?.[0]?.extensions.code).toBe('invalid_request');
    expect(r.body.errors?.[0]?.message).toMatch(/^query: a mutation runs one field/);
    expect(await balance(a.accountId)).toEqual({ credits: 7, unlocks: 0 });
  });

  it('several paid fields in a document whose other operation has many aliases: still refused, nothing charged', async () => {
    const held = await addEpisode(t, { doc: sampleDoc() });
    const a = await t.account({ credits: 7 });
    // Each operation within the alias limit, the document as a whole past it.
    const other = Array.from({ length: 14 }, (_, i) => `b${i}: me { credits }`).join(' ');
    const query = `mutation A { a: unlock(transcriptId: "${held.transcriptId}") { credits } b: unlock(transcriptId: "0000000000000000") { credits } } query B { ${other} }`;
    const res = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName: 'A' }) });
    const body = (await res.json()) as { data?: unknown; errors?: { message: string }[] };
    expect(res.status).toBe(400);
    expect(body.errors?.[0]?.message).toMatch(/^query: a mutation runs one field/);
    expect(await balance(a.accountId)).toEqual({ credits: 7, unlocks: 0 });
  });

  it('a key rotation beside another field: refused, the key still works', async () => {
    const a = await t.account({ credits: 1 });
    const r = await post('mutation { rotateKey { key } rotateWebhookSecret { secret } }', a.key);
    expect(r.status).toBe(400);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
  });

  it('one field (with __typename beside it) runs', async () => {
    const held = await addEpisode(t, { doc: sampleDoc() });
    const a = await t.account({ credits: 2 });
    const r = await post(`mutation { __typename unlock(transcriptId: "${held.transcriptId}") { credits } }`, a.key);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ __typename: 'Mutation', unlock: { credits: 1 } });
    expect(await balance(a.accountId)).toEqual({ credits: 1, unlocks: 1 });
  });
});
