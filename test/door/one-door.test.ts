import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { isOperationName, operations } from '../../src/core/door/operations.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { fieldOperation } from '../../src/graphql/admission.js';
import { buildSchema } from '../../src/graphql/schema.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';

let t: TestPodtext;
let base: string;
beforeAll(async () => {
  t = await startTestPodtext();
  base = await t.podtext.listen();
});
afterAll(() => t.close());

const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));

/** One raw HTTP/1.1 exchange, so repeated headers reach the server as sent. */
function rawGet(path: string, headers: [string, string][]): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: 'GET', headers: headers.flat() as unknown as Record<string, string> }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('every route and root field names an operation of the catalogue', () => {
  it('openapi.json and the GraphQL schema have no call outside the catalogue, and the catalogue nothing unreachable', () => {
    const doc = JSON.parse(readFileSync('schema/openapi.json', 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const used = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        expect(op.operationId && isOperationName(op.operationId), `${method} ${path}`).toBe(true);
        used.add(op.operationId!);
      }
    }
    const schema = buildSchema();
    for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      for (const field of Object.keys(type!.getFields())) {
        const op = fieldOperation(type, field);
        expect(op, `${type!.name}.${field}`).not.toBeNull();
        used.add(op!);
      }
    }
    expect(Object.keys(operations).filter((o) => !used.has(o))).toEqual(['unknownCall']);
  });
});

describe('REST and GraphQL count and stamp alike', () => {
  const pairs: { name: string; rest: [string, string, unknown?]; gql: string; counts: number }[] = [
    { name: 'getMe', rest: ['GET', '/me'], gql: '{ me { credits } }', counts: 1 },
    { name: 'getUsage', rest: ['GET', '/usage'], gql: '{ usage { plan } }', counts: 1 },
    { name: 'searchShows', rest: ['GET', '/search?q=history'], gql: '{ search(q: "history") { query } }', counts: 1 },
    { name: 'getCharts', rest: ['GET', '/charts'], gql: '{ charts { genres { slug } } }', counts: 1 },
    { name: 'getTrending', rest: ['GET', '/trending'], gql: '{ trending { shows { title } } }', counts: 1 },
    { name: 'listJobs', rest: ['GET', '/jobs'], gql: '{ jobs { totalCount } }', counts: 1 },
    { name: 'getWebhookSecret', rest: ['GET', '/webhooks/secret'], gql: '{ webhookSecret { secret } }', counts: 1 },
    { name: 'getTranscript (sample)', rest: ['GET', `/transcripts/${sampleEpisode.transcriptId}`], gql: `{ transcript(transcriptId: "${sampleEpisode.transcriptId}") { version } }`, counts: 1 },
    { name: 'startRegistration', rest: ['POST', '/register/start', { email: 'door@example.com' }], gql: 'mutation { registerStart(email: "door2@example.com") { ok } }', counts: 0 },
  ];
  for (const p of pairs) {
    it(`${p.name}: ${p.counts} request with a key on both`, async () => {
      const a = await t.account();
      const before = remaining(await t.api('GET', '/me', { key: a.key }));
      const rest = await t.api(p.rest[0], p.rest[1], { key: a.key, body: p.rest[2] });
      const viaRest = p.counts === 0 ? remaining(await t.api('GET', '/me', { key: a.key })) + 1 : remaining(rest);
      expect(rest.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(before - viaRest, 'REST').toBe(p.counts);
      const gql = await t.gql(p.gql, undefined, a.key);
      expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
      const viaGql = p.counts === 0 ? remaining(await t.api('GET', '/me', { key: a.key })) + 1 : remaining(gql);
      expect(viaRest - viaGql - (p.counts === 0 ? 1 : 0), 'GraphQL').toBe(p.counts);
    });
  }

  it('the public sample without a key: 0 on both, Free allowance untouched in the headers', async () => {
    const rest = await t.api('GET', `/transcripts/${sampleEpisode.transcriptId}`);
    const gql = await t.gql(`{ transcript(transcriptId: "${sampleEpisode.transcriptId}") { version } }`);
    for (const r of [rest, gql]) {
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('1000');
    }
  });

  it('the public sample without a key, its id the default of a variable left out: read as when sent, counting 0', async () => {
    const sample = sampleEpisode.transcriptId;
    const query = `query Sample($id: String! = "${sample}") { transcript(transcriptId: $id) { version } }`;
    for (const variables of [undefined, { id: sample }]) {
      const r = await t.gql(query, variables);
      expect(r.status, JSON.stringify(variables)).toBe(200);
      expect(r.body.data).toEqual({ transcript: { version: expect.any(Number) } });
      expect(r.headers.get('x-ratelimit-remaining')).toBe('1000');
    }
    // A variable sent overrides its default: another episode still needs a key.
    expect((await t.gql(query, { id: '0123456789abcdef' })).body.errors?.[0]?.extensions?.code).toBe('unauthorized');
  });

  it('GraphQL counts root fields as executed: merged fields once, fragments once, aliases each, __typename and bad documents one', async () => {
    const a = await t.account();
    const cases: [string, number][] = [
      ['{ me { credits } me { plan } }', 1],
      ['query { ...F ...F } fragment F on Query { me { credits } usage { plan } charts { genres { slug } } }', 3],
      ['{ x: me { credits } y: me { credits } }', 2],
      ['{ __typename }', 1],
      ['{ __schema { queryType { name } } }', 1],
      ['{ me { nosuchfield } }', 1],
      ['{ me { ', 1],
      // `@skip` by a variable's default, as execution applies it.
      ['query ($skip: Boolean = true) { a: me @skip(if: $skip) { credits } b: me { plan } }', 1],
    ];
    let last = remaining(await t.api('GET', '/me', { key: a.key }));
    for (const [query, cost] of cases) {
      const r = await t.gql(query, undefined, a.key);
      expect(last - remaining(r), query).toBe(cost);
      last = remaining(r);
    }
  });
});

describe('every keyed answer is counted and stamped', () => {
  it('400, 404, 405, 413 and 429 carry the headers and count; a wrong key 401 counts nothing', async () => {
    const a = await t.account({ credits: 0 });
    let last = remaining(await t.api('GET', '/me', { key: a.key }));
    const answers: [number, () => Promise<Response>][] = [
      [400, () => t.api('POST', '/unlock', { key: a.key, body: '{"transcript": ' })],
      [400, () => t.api('POST', '/unlock', { key: a.key, body: { transcript: 'ab\u0000' } })],
      [404, () => t.api('POST', '/unlock', { key: a.key, body: { transcript: '0123456789abcdef' } })],
      [404, () => t.api('GET', '/no/such/route', { key: a.key })],
      [405, () => t.api('DELETE', '/me', { key: a.key })],
      [413, () => t.api('POST', '/unlock', { key: a.key, body: { transcript: 'x'.repeat(1_100_000) } })],
    ];
    for (const [status, call] of answers) {
      const r = await call();
      expect(r.status).toBe(status);
      expect(r.headers.get('x-ratelimit-limit'), String(status)).toBe('1000');
      expect(last - remaining(r), String(status)).toBe(1);
      last = remaining(r);
    }
    const wrong = await t.api('GET', '/me', { key: `ptk_${'x'.repeat(43)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-ratelimit-remaining')).toBe('1000');
    // A 401 names the scheme it wants, with a key or without one.
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect((await t.api('GET', '/me')).headers.get('www-authenticate')).toBe('Bearer');
    expect((await t.api('DELETE', '/me', { key: a.key })).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await t.api('DELETE', '/unlock', { key: a.key })).headers.get('allow')).toBe('POST, OPTIONS');
    // `/shows/lookup` is also the shape of `/shows/{feed_id}`: each method is named once.
    const lookup = await t.api('POST', '/shows/lookup', { key: a.key });
    expect(lookup.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(((await lookup.json()) as { error: { message: string } }).error.message).toBe('POST is not allowed here; use GET.');
    // OPTIONS says what a route takes: 204 with Allow, counted like any call made with a key.
    const before = remaining(await t.api('GET', '/me', { key: a.key }));
    const options = await t.api('OPTIONS', '/me', { key: a.key });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(before - remaining(options)).toBe(1);
    expect((await t.api('OPTIONS', '/no-such-route', { key: a.key })).status).toBe(404);
  });

  it('429 once spent, on REST and GraphQL, introspection included', async () => {
    const a = await t.account();
    await t.podtext.services.metering.take((await t.podtext.services.keys.authenticate(a.key)), 1000);
    const rest = await t.api('GET', '/me', { key: a.key });
    expect(rest.status).toBe(429);
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');
    const gql = await t.gql('{ __schema { queryType { name } } }', undefined, a.key);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('rate_limited');
    expect(gql.headers.get('x-ratelimit-remaining')).toBe('0');
    // A body over the limit is refused by the door first, as any call: 429 on both, saying when it resets.
    const big = JSON.stringify({ query: `{ me { credits } } # ${'x'.repeat(1_100_000)}` });
    const bigRest = await t.api('POST', '/unlock', { key: a.key, body: big });
    const bigGql = await t.request('/graphql', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: big });
    for (const r of [bigRest, bigGql]) {
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(((await bigGql.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('rate_limited');
    // And a key that matches no account is 401 on both, not 413.
    const unknown = `Bearer ptk_${'x'.repeat(43)}`;
    expect((await t.api('POST', '/unlock', { key: `ptk_${'x'.repeat(43)}`, body: big })).status).toBe(401);
    expect((await t.request('/graphql', { method: 'POST', headers: { authorization: unknown, 'content-type': 'application/json' }, body: big })).status).toBe(401);
  });

  it('a header sent twice is refused alike on REST and GraphQL', async () => {
    const a = await t.account();
    for (const path of ['/api/v1/me', '/graphql?query=%7Bme%7Bcredits%7D%7D']) {
      const twice = await rawGet(path, [['authorization', `Bearer ${a.key}`], ['authorization', `Bearer ${a.key}`]]);
      expect(twice.status, path).toBe(400);
      const keys = await rawGet(path, [['x-api-key', a.key], ['x-api-key', a.key]]);
      expect(keys.status, path).toBe(400);
    }
  });

  it('NUL in GraphQL variables is refused before any resolver, as in REST bodies', async () => {
    const r = await t.gql('mutation ($e: String!) { registerStart(email: $e) { ok } }', { e: 'a\u0000@example.com' });
    expect(r.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
  });

  it('a lone surrogate in GraphQL variables is refused before any resolver, naming the variable', async () => {
    const r = await t.gql('mutation ($t: String!) { registerConfirm(token: $t) { created } }', { t: 'abc\ud800' });
    expect(r.body.errors?.[0]).toMatchObject({ message: 'variables.t: contains a lone surrogate (half of a UTF-16 pair, no character)', extensions: { code: 'invalid_request' } });
  });

  it('NUL written into a GraphQL document (an argument, a default) is refused before any resolver, naming the argument, nothing charged', async () => {
    const a = await t.account({ credits: 3 });
    const cases: [string, string][] = [
      [`mutation { aiSearch(transcriptId: "${sampleEpisode.transcriptId}", topic: "hello\\u0000world") { found } }`, 'topic'],
      ['{ trending(category: "a\\u0000b") { categories } }', 'category'],
      ['{ search(q: "a\\u0000b") { query } }', 'q'],
      ['mutation { requestTranscription(input: { dryRun: true, episodes: [{ guid: "g\\u0000", url: "https://a.example/1.mp3" }] }) { queued } }', 'input.episodes.0.guid'],
      ['query ($c: String = "a\\u0000") { trending(category: $c) { categories } }', '$c'],
    ];
    for (const [query, field] of cases) {
      const r = await t.gql(query, undefined, a.key);
      expect(r.body.errors, query).toHaveLength(1);
      expect(r.body.errors?.[0], query).toMatchObject({ message: `${field}: contains a NUL character`, extensions: { code: 'invalid_request', field } });
    }
    expect((await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(3);
  });

  it('/graphql: a wrong method is 405; a foreign origin gets no credentials', async () => {
    const put = await t.request('/graphql', { method: 'PUT' });
    expect(put.status).toBe(405);
    // Made with a key, it is a call like any other: counted, stamped, and in GraphQL's error shape.
    const a = await t.account();
    const before = remaining(await t.api('GET', '/me', { key: a.key }));
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const wrong = await t.request('/graphql', { method, headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: '{"query":"{me{credits}}"}' });
      expect(wrong.status, method).toBe(405);
      expect(wrong.headers.get('allow'), method).toBe('GET, POST, OPTIONS');
      expect(wrong.headers.get('x-ratelimit-limit'), method).toBe('1000');
      expect(((await wrong.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code, method).toBe('method_not_allowed');
    }
    expect(before - remaining(await t.api('GET', '/me', { key: a.key }))).toBe(4);
    const unknownKey = await t.request('/graphql', { method: 'PUT', headers: { authorization: `Bearer ptk_${'x'.repeat(43)}` } });
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.headers.get('x-ratelimit-remaining')).toBe('1000');
    const foreign = await t.request('/graphql', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(foreign.headers.get('access-control-allow-credentials')).not.toBe('true');
    const own = await t.request('/graphql', { method: 'OPTIONS', headers: { origin: 'http://podtext.test', 'access-control-request-method': 'POST' } });
    expect(own.headers.get('access-control-allow-origin')).toBe('http://podtext.test');
    // Answers made before yoga runs (a body over the limit) are readable by the page too, figures included.
    const big = JSON.stringify({ query: `{ me { credits } } # ${'x'.repeat(1_100_000)}` });
    for (const origin of ['https://app.example', 'http://podtext.test']) {
      const r = await t.request('/graphql', { method: 'POST', headers: { origin, authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: big });
      expect(r.status, origin).toBe(413);
      expect(r.headers.get('access-control-allow-origin'), origin).toBe(origin === 'http://podtext.test' ? origin : '*');
      expect(r.headers.get('access-control-allow-credentials'), origin).toBe(origin === 'http://podtext.test' ? 'true' : null);
      expect(r.headers.get('access-control-expose-headers'), origin).toContain('X-RateLimit-Remaining');
    }
  });
});

describe('over a real HTTP server', () => {
  it('every kind of answer carries the rate-limit headers of the same count', async () => {
    const a = await t.account();
    const auth = { authorization: `Bearer ${a.key}` };
    const sample = sampleEpisode.transcriptId;
    const calls: [string, RequestInit, number][] = [
      ['/api/v1/me', { headers: auth }, 200],
      [`/api/v1/transcripts/${sample}?format=srt`, { headers: auth }, 200],
      ['/api/v1/shows/not-a-number', { headers: auth }, 400],
      ['/api/v1/unlock', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"transcript":' }, 400],
      ['/api/v1/no-such-route', { headers: auth }, 404],
      ['/api/v1/me', { method: 'DELETE', headers: auth }, 405],
      ['/api/v1/me', { method: 'HEAD', headers: auth }, 200],
    ];
    let last = remaining(await fetch(`${base}/api/v1/me`, { headers: auth }));
    for (const [path, init, status] of calls) {
      const r = await fetch(`${base}${path}`, init);
      await r.arrayBuffer();
      expect(r.status, path).toBe(status);
      expect(r.headers.get('x-ratelimit-limit'), path).toBe('1000');
      expect(remaining(r), `${init.method ?? 'GET'} ${path}`).toBe(last - 1);
      last = remaining(r);
    }
    const wrong = await fetch(`${base}/api/v1/me`, { headers: { authorization: 'Bearer ptk_0000000000000000000000000000000000000000' } });
    expect(wrong.status).toBe(401);
    expect([wrong.headers.get('x-ratelimit-limit'), wrong.headers.get('x-ratelimit-remaining')]).toEqual(['1000', '1000']);
  });
});

describe('connections', () => {
  it('after a 413 the next request on the same pooled connection succeeds', async () => {
    const big = JSON.stringify({ email: 'x'.repeat(1_100_000) });
    const first = await fetch(`${base}/api/v1/register/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(first.status).toBe(413);
    await first.text();
    const next = await fetch(`${base}/openapi.json`);
    expect(next.status).toBe(200);
    await next.text();
  });
});

describe('graphql-ws counts as GraphQL over HTTP', () => {
  it('a valid, an invalid and an introspection document cost the same and report the same figures', async () => {
    const overHttp = await t.account();
    const overWs = await t.account();
    const client = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: overWs.key }, retryAttempts: 0 });
    type Figures = { limit: number; remaining: number };
    // A `next` payload carries the figures in its extensions; an `error` payload in each error's.
    const viaSocket = (query: string) =>
      new Promise<{ ok: boolean; rateLimit: Figures | undefined }>((resolve) => {
        client.subscribe<unknown, { rateLimit?: Figures }>(
          { query },
          {
            next: (r) => resolve({ ok: !r.errors, rateLimit: r.extensions?.rateLimit }),
            error: (e) => resolve({ ok: false, rateLimit: (e as { extensions?: { rateLimit?: Figures } }[])[0]?.extensions?.rateLimit }),
            complete: () => undefined,
          },
        );
      });
    const documents = [
      // Two root fields: two requests.
      '{ me { credits } usage { plan } }',
      // Refused by validation: one request, not one per root field.
      '{ me { nosuchfield } usage { plan } charts { nosuchfield } }',
      '{ __schema { queryType { name } } }',
    ];
    for (const query of documents) {
      const http = await t.gql(query, undefined, overHttp.key);
      const ws = await viaSocket(query);
      expect(ws.ok, query).toBe(!http.body.errors);
      expect(ws.rateLimit, query).toEqual({ limit: Number(http.headers.get('x-ratelimit-limit')), remaining: remaining(http) });
    }
    expect(remaining(await t.api('GET', '/me', { key: overWs.key }))).toBe(1000 - 2 - 1 - 1 - 1);
    await client.dispose();
  });
});

describe('graphql-ws follows the account behind the handshake', () => {
  it('counts against the plan as it is now: a downgrade on an open socket lowers the allowance there too', async () => {
    const a = await t.account({ plan: 'pro' });
    // One socket throughout: the plan is not read again by a new handshake.
    let connections = 0;
    const client = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: a.key }, retryAttempts: 0, lazy: false, on: { connected: () => connections++ } });
    type Payload = { data?: { me?: { plan: string } }; extensions?: { rateLimit?: { limit: number } } };
    const me = () =>
      new Promise<Payload>((resolve, reject) => {
        client.subscribe<Payload['data']>({ query: '{ me { plan } }' }, { next: (r) => resolve(r as Payload), error: reject, complete: () => undefined });
      });
    const before = await me();
    expect([before.data?.me?.plan, before.extensions?.rateLimit?.limit]).toEqual(['pro', 20000]);
    await t.podtext.services.accounts.setPlan(a.email, 'free');
    const after = await me();
    expect([after.data?.me?.plan, after.extensions?.rateLimit?.limit]).toEqual(['free', 1000]);
    // The same figures as over HTTP.
    expect((await t.api('GET', '/me', { key: a.key })).headers.get('x-ratelimit-limit')).toBe('1000');
    expect(connections).toBe(1);
    await client.dispose();
  });
});

describe('subscriptions', () => {
  it('a bad subscribe on graphql-ws is answered for its id; the socket and its other operations go on', async () => {
    const a = await t.account();
    const client = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${a.key}` }, retryAttempts: 0 });
    const run = (query: string) =>
      new Promise<unknown>((resolve) => {
        client.subscribe({ query }, { next: resolve, error: (e) => resolve({ error: e }), complete: () => undefined });
      });
    const bad = (await run('{ me { ')) as { error: { message: string }[] };
    expect(Array.isArray(bad.error)).toBe(true);
    const good = (await run('{ me { credits } }')) as { data: unknown };
    expect(good.data).toEqual({ me: { credits: 10 } });
    await client.dispose();
  });

  it('an SSE subscription ends when its key is rotated', async () => {
    const a = await t.account({ credits: 0 });
    const res = await fetch(`${base}/graphql?query=${encodeURIComponent('subscription { myJobsUpdated { id } }')}`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${a.key}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await new Promise((r) => setTimeout(r, 200));
    await t.api('POST', '/key/rotate', { key: a.key });
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      (async () => {
        for (;;) if ((await reader.read()).done) return true;
      })(),
      new Promise((r) => (timer = setTimeout(() => r(false), 5000))),
    ]);
    clearTimeout(timer);
    if (!ended) await reader.cancel();
    expect(ended).toBe(true);
  });
});

describe('the warm path', () => {
  it('admits a call whose key and count are known here at once, and a cold one once they are read, counting each', async () => {
    const a = await t.account();
    const door = t.podtext.services.door;
    const credentials = { authorization: [`Bearer ${a.key}`] };
    // Cold: the key and today's count are read from the database first.
    const cold = door.admit({ operation: 'getMe' }, credentials);
    expect(cold).toBeInstanceOf(Promise);
    const first = await cold;
    expect(first.error).toBeNull();
    const warm = door.admit({ operation: 'getMe' }, credentials);
    expect(warm).not.toBeInstanceOf(Promise);
    const second = await warm;
    expect(second.actor?.accountId).toBe(first.actor?.accountId);
    expect(second.meter.remaining).toBe(first.meter.remaining - 1);
    // A key known to be wrong is refused at once too, and counts nothing.
    const wrong = door.admit({ operation: 'getMe' }, { authorization: ['Bearer pt_live_0000000000000000'] });
    expect((await wrong).error?.code).toBe('unauthorized');
    const refusedAgain = door.admit({ operation: 'getMe' }, { authorization: ['Bearer pt_live_0000000000000000'] });
    expect(refusedAgain).not.toBeInstanceOf(Promise);
    expect((await refusedAgain).error?.code).toBe('unauthorized');
  });
});
