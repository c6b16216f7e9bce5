import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { asrDoc } from '../../src/core/jobs/asr-doc.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from '../jobs/support/audio-server.js';
import { postRequest } from '../jobs/support/jobs-api.js';
import { waitFor } from '../jobs/support/wait.js';

let t: TestPodtext;
let wsUrl: string;
beforeAll(async () => {
  t = await startTestPodtext();
  wsUrl = `${(await t.podtext.listen()).replace('http', 'ws')}/graphql`;
});
afterAll(() => t.close());

function closeCode(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.on('close', (code) => resolve(code)));
}

describe('graphql-ws on /graphql', () => {
  it('answers operations with the key in connectionParams', async () => {
    const a = await t.account({ credits: 4 });
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${a.key}` }, retryAttempts: 0 });
    const result = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: '{ me { credits } }' }, { next: resolve, error: reject, complete: () => undefined });
    });
    // graphql-ws has no headers: the rate-limit figures ride in the payload's extensions.
    expect(result).toEqual({ data: { me: { credits: 4 } }, extensions: { rateLimit: { limit: 1000, remaining: 999 } } });
    await client.dispose();
  });

  it('no connection_init within 3 s closes with 4408', async () => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    const started = Date.now();
    expect(await closeCode(socket)).toBe(4408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it('without a key, answers what needs none (the public sample) and refuses the rest one by one, as over HTTP', async () => {
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
    const run = (query: string) =>
      new Promise<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>((resolve, reject) => {
        client.subscribe({ query }, { next: (r) => resolve(r as never), error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)), complete: () => undefined });
      });
    const sample = await run(`{ transcript(transcriptId: "${sampleEpisode.transcriptId}") { version } }`);
    expect(sample.data).toEqual({ transcript: { version: expect.any(Number) } });
    const me = await run('{ me { credits } }');
    expect(me.errors?.[0]?.extensions?.code).toBe('unauthorized');
    // HTTP's status and headers are for yoga over HTTP: a socket's errors do not carry them.
    expect(me.errors?.[0]?.extensions).not.toHaveProperty('http');
    const missing = await run('{ transcript(transcriptId: "0123456789abcdef") { version } }');
    expect(missing.errors?.[0]?.extensions).toEqual(expect.objectContaining({ code: expect.any(String) }));
    expect(missing.errors?.[0]?.extensions).not.toHaveProperty('http');
    // The socket is still open for the next keyless operation.
    expect((await run(`{ transcript(transcriptId: "${sampleEpisode.transcriptId}") { version } }`)).data).toBeTruthy();
    await client.dispose();
  });

  it('parameters that name no key (an empty authorization, a blank apiKey) connect without one, as an empty header does over HTTP', async () => {
    for (const connectionParams of [{ authorization: '' }, { apiKey: '  ' }]) {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
      const sample = await new Promise<{ data?: unknown }>((resolve, reject) => {
        client.subscribe({ query: `{ transcript(transcriptId: "${sampleEpisode.transcriptId}") { version } }` }, { next: (r) => resolve(r as never), error: reject, complete: () => undefined });
      });
      expect(sample.data, JSON.stringify(connectionParams)).toEqual({ transcript: { version: expect.any(Number) } });
      await client.dispose();
    }
  });

  it('a spent allowance says when to try again, in seconds, as Retry-After does over HTTP', async () => {
    const a = await t.account();
    const { keys, metering } = t.podtext.services;
    await metering.take(await keys.authenticate(a.key), 1000);
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${a.key}` }, retryAttempts: 0 });
    const errors = await new Promise<{ extensions?: Record<string, unknown> }[]>((resolve, reject) => {
      client.subscribe({ query: '{ me { credits } }' }, { next: () => reject(new Error('answered')), error: (e) => (Array.isArray(e) ? resolve(e) : reject(e)), complete: () => undefined });
    });
    const http = await t.gql('{ me { credits } }', undefined, a.key);
    const retryAfter = Number(http.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(http.body.errors?.[0]?.extensions).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    expect(errors[0]?.extensions).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    // Seconds to 00:00 UTC, read a moment apart.
    expect(Math.abs((errors[0]!.extensions!.retryAfter as number) - retryAfter)).toBeLessThanOrEqual(2);
    await client.dispose();
  });

  it('a bad key closes with 4403, saying why as REST does', async () => {
    const a = await t.account();
    const b = await t.account();
    for (const [payload, reason] of [
      [{ authorization: 'Bearer ptk_nope' }, 'Unknown API key'],
      [{ authorization: a.key }, 'Authorization must be "Bearer <API key>"'],
      [{ authorization: `Bearer ${a.key}`, apiKey: b.key }, 'Authorization and X-Api-Key carry different keys; send one.'],
    ] as const) {
      const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
      const closed = new Promise<[number, string]>((resolve) => socket.on('close', (code, why) => resolve([code, String(why)])));
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
      expect(await closed, reason).toEqual([4403, reason]);
    }
  });

  it('rotating the key closes sockets opened with it', async () => {
    const a = await t.account();
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    const acked = new Promise<void>((resolve) => socket.on('message', (m) => JSON.parse(String(m)).type === 'connection_ack' && resolve()));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey: a.key } })));
    await acked;
    const closed = closeCode(socket);
    expect((await t.api('POST', '/key/rotate', { key: a.key })).status).toBe(200);
    expect(await closed).toBe(4403);
  });

  it('a document refused before it runs carries invalid_request, as over HTTP', async () => {
    const a = await t.account();
    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${a.key}` }, retryAttempts: 0 });
    const deep = (n: number): string => (n === 0 ? 'title' : `show { episodes { ${deep(n - 1)} } }`);
    for (const query of ['{ me { ', `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: me { credits }`).join(' ')} }`, `{ episodes(feedId: 1) { nodes { ${deep(6)} } } }`, '{ mee { credits } }']) {
      const errors = await new Promise<{ message: string; extensions?: { code?: string; http?: unknown } }[]>((resolve) => {
        client.subscribe({ query }, { next: () => undefined, error: (e) => resolve(e as never), complete: () => undefined });
      });
      expect(errors[0]?.extensions?.code, query.slice(0, 30)).toBe('invalid_request');
      expect(errors[0]?.extensions?.http, query.slice(0, 30)).toBeUndefined();
    }
    await client.dispose();
  });

  it('rotating the key on the socket itself answers with the new key, then closes', async () => {
    const a = await t.account();
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    const messages: { type: string; id?: string; payload?: { data?: { rotateKey?: { key: string } } } }[] = [];
    const acked = new Promise<void>((resolve) => socket.on('message', (m) => {
      const message = JSON.parse(String(m));
      messages.push(message);
      if (message.type === 'connection_ack') resolve();
    }));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey: a.key } })));
    await acked;
    const closed = closeCode(socket);
    socket.send(JSON.stringify({ id: 'rot', type: 'subscribe', payload: { query: 'mutation { rotateKey { key } }' } }));
    expect(await closed).toBe(4403);
    const key = messages.find((m) => m.type === 'next' && m.id === 'rot')?.payload?.data?.rotateKey?.key;
    expect(key).toMatch(/^ptk_/);
    expect((await t.api('GET', '/me', { key: key! })).status).toBe(200);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(401);
  });

  it('1,000 job events across 10 accounts: each subscriber sees its own jobs, all of them, and nothing else', async () => {
    const ACCOUNTS = 10;
    const JOBS = 34;
    let events = 0;
    const unsubscribe = t.podtext.services.bus.subscribe((e) => void (e.type === 'job.updated' && events++));
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => t.account({ credits: JOBS })));
    const seen = accounts.map(() => [] as { id: string; status: string }[]);
    const clients = accounts.map((a, i) => {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${a.key}` }, retryAttempts: 0 });
      client.subscribe<{ myJobsUpdated: { id: string; status: string } }>(
        { query: 'subscription { myJobsUpdated { id status } }' },
        { next: (r) => void (r.data && seen[i]!.push(r.data.myJobsUpdated)), error: (e) => seen[i]!.push({ id: `error: ${(e as { code?: number }).code ?? String(e)}`, status: '' }), complete: () => undefined },
      );
      return client;
    });
    const own = accounts.map(() => new Set<string>());
    const post = () =>
      Promise.all(
        accounts.map(async (a, i) => {
          const r = await postRequest(t, a.key, { episodes: [{ guid: newGuid('fanout'), url: 'https://media.example/a.mp3' }] });
          expect(r.status).toBe(200);
          own[i]!.add(r.body.job.id);
        }),
      );
    // A first job each, then wait for every subscriber to report it: all ten are listening.
    await post();
    await waitFor(() => seen.every((s) => s.length > 0) || undefined, 60_000, () => `every subscription answering (${JSON.stringify(seen).slice(0, 1500)})`);
    for (let n = 1; n < JOBS; n++) await post();
    // Each task claimed and completed, as a worker would: queued, processing and done for every job.
    const result = { doc: asrDoc([{ w: 'hello', s: 0, e: 0.4 }], 'en'), engine: 'sphinx', model: 'en-us', language: 'en', durationSeconds: 1, engineLane: 'standard' as const, slotSeconds: 1 };
    for (;;) {
      const task = await t.podtext.services.jobs.tasks.claim('fan-out');
      if (!task) break;
      expect(await t.podtext.services.jobs.tasks.complete(task, result, 'sphinx')).toBe('stored');
    }
    await waitFor(() => seen.every((s, i) => [...own[i]!].every((id) => s.some((v) => v.id === id && v.status === 'done'))) || undefined, 30_000, () => `every job done for its subscriber (${JSON.stringify(seen).slice(0, 1500)})`);
    unsubscribe();
    for (const c of clients) await c.dispose();
    expect(events).toBeGreaterThanOrEqual(1000);
    const wrong = seen.flatMap((s, i) => s.filter((v) => !own[i]!.has(v.id)));
    expect(wrong).toEqual([]);
  }, 300_000);
});

// On PostgreSQL the key's check waits on the network, so the client can leave meanwhile.
describe.skipIf(!hasPostgres())('graphql-ws sockets closed while their key is checked', () => {
  it('leave nothing watched behind: the key-retirement watch is taken only for a socket still open', async () => {
    const db = await freshPostgresDatabase();
    const pt = await startTestPodtext({ databaseUrl: db.url });
    try {
      const url = `${(await pt.podtext.listen()).replace('http', 'ws')}/graphql`;
      for (let i = 0; i < 20; i++) {
        // A key no process has checked yet: the handshake reads the database, and the client leaves meanwhile.
        const a = await pt.account();
        const socket = new WebSocket(url, 'graphql-transport-ws');
        const closed = closeCode(socket);
        await new Promise((resolve) => socket.on('open', resolve));
        socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${a.key}` } }));
        socket.terminate();
        await closed;
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(pt.podtext.services.keyRetirement.watching()).toBe(0);
    } finally {
      await pt.close();
      await db.drop();
    }
  });
});
