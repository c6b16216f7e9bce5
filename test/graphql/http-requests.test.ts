import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';

// What GraphQL over HTTP is sent beyond a well-formed JSON POST: each gets
// REST's code and status for the same fault, in GraphQL's error shape, and
// counts as one call.
let t: TestPodtext;
let url: string;
let a: TestAccount;
beforeAll(async () => {
  t = await startTestPodtext();
  url = await t.podtext.listen();
  a = await t.account();
});
afterAll(() => t?.close());

type Answer = { status: number; remaining: string | null; body: { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] } };

async function call(init: RequestInit & { headers?: Record<string, string> }, query = ''): Promise<Answer> {
  const res = await fetch(`${url}/graphql${query}`, { ...init, headers: { authorization: `Bearer ${a.key}`, ...init.headers } });
  const text = await res.text();
  return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining'), body: text ? JSON.parse(text) : {} };
}

const ME = encodeURIComponent('{ me { credits } }');

describe('GraphQL over HTTP, what it is sent', () => {
  it('variables or extensions that are not JSON, in a GET or a form POST: 400 naming them, not a fault of ours', async () => {
    for (const [init, query, field] of [
      [{}, `?query=${ME}&variables=%7Bbad`, 'variables'],
      [{}, `?query=${ME}&extensions=%7Bbad`, 'extensions'],
      [{ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `query=${ME}&variables=%7Bbad` }, '', 'variables'],
    ] as const) {
      const r = await call(init as Parameters<typeof call>[0], query);
      expect(r.status, query || 'form').toBe(400);
      expect(r.body.errors?.[0]).toEqual({ message: `${field}: malformed JSON`, extensions: { code: 'invalid_request', field } });
    }
  });

  it('a body that is not UTF-8 (a Latin-1 title): 400 naming the body, as REST says, not run with U+FFFD in its place', async () => {
    const query = 'mutation { requestTranscription(input: { dryRun: true, episodes: [{ guid: "g", url: "https://a.example/1.mp3", title: "caf\u00e9" }] }) { queued } }';
    const r = await call({ method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ query }), 'latin1') });
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]).toEqual({ message: 'body: not valid UTF-8 (JSON is sent as UTF-8)', extensions: { code: 'invalid_request', field: 'body' } });
    const utf8 = await call({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    expect(utf8.body).toEqual({ data: { requestTranscription: { queued: 1 } } });
  });

  it('a body that is not sent as JSON: 400 saying to send JSON, as REST says; JSON whatever the case of its type', async () => {
    const before = Number((await call({}, `?query=${ME}`)).remaining);
    for (const headers of [{ 'content-type': 'text/plain' }, {}] as Record<string, string>[]) {
      const r = await call({ method: 'POST', headers, body: JSON.stringify({ query: '{ me { credits } }' }) });
      expect(r.status).toBe(400);
      expect(r.body.errors?.[0]).toEqual({ message: 'body: send JSON, with "Content-Type: application/json"', extensions: { code: 'invalid_request', field: 'body' } });
    }
    const upper = await call({ method: 'POST', headers: { 'content-type': 'Application/JSON; charset=UTF-8' }, body: JSON.stringify({ query: '{ me { credits } }' }) });
    expect(upper.status).toBe(200);
    expect(upper.body.data).toEqual({ me: { credits: expect.any(Number) } });
    // Malformed JSON is named as REST names it, however the type is spelt.
    let last = Number(upper.remaining);
    for (const type of ['Application/JSON', 'application/json', 'application/graphql-response+json']) {
      const broken = await call({ method: 'POST', headers: { 'content-type': type }, body: '{"query":' });
      expect(broken.status, type).toBe(400);
      expect(broken.body.errors?.[0], type).toEqual({ message: 'body: malformed JSON', extensions: { code: 'invalid_request', field: 'body' } });
      // Each was one call.
      expect(Number(broken.remaining), type).toBe(--last);
    }
    const scalar = await call({ method: 'POST', headers: { 'content-type': 'application/json' }, body: 'null' });
    expect(scalar.status).toBe(400);
    expect(scalar.body.errors?.[0]?.extensions).toEqual({ code: 'invalid_request', field: 'body' });
    expect(Number(upper.remaining)).toBe(before - 3);
  });

  it('variables that do not fit their types, or a required one not sent: named, 200 under legacy JSON and 400 under graphql-response+json, queries and subscriptions alike', async () => {
    const job = 'query ($id: String!) { job(id: $id) { id } }';
    const watch = 'subscription ($id: String!) { jobUpdated(id: $id) { id } }';
    for (const [query, variables, message] of [
      [job, { id: 7 }, 'Variable "$id" got invalid value 7; String cannot represent a non string value: 7'],
      [job, {}, 'Variable "$id" of required type "String!" was not provided.'],
      [watch, { id: 7 }, 'Variable "$id" got invalid value 7; String cannot represent a non string value: 7'],
      [watch, {}, 'Variable "$id" of required type "String!" was not provided.'],
    ] as const) {
      const label = `${query.slice(0, 12)} ${JSON.stringify(variables)}`;
      for (const [accept, status] of [['application/json', 200], ['application/graphql-response+json', 400]] as const) {
        const r = await call({ method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query, variables }) });
        expect(r.status, `${label} ${accept}`).toBe(status);
        expect(r.body.errors?.[0], label).toMatchObject({ message, extensions: { code: 'invalid_request' } });
      }
    }
  });

  it('no document (nothing sent, or a persisted query\'s hash alone): 400 naming query under every Accept, counted', async () => {
    const before = Number((await call({}, `?query=${ME}`)).remaining);
    const message = 'query: required: the GraphQL document to run (persisted queries are not supported: send the document itself)';
    const persisted = { extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } };
    const answers = [
      await call({ headers: { accept: 'application/json' } }),
      await call({ method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' }),
      await call({ method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify(persisted) }),
    ];
    for (const r of answers) {
      expect(r.status).toBe(400);
      expect(r.body.errors?.[0]).toEqual({ message, extensions: { code: 'invalid_request', field: 'query' } });
    }
    expect(Number(answers[2]!.remaining)).toBe(before - 3);
  });

  it('an operationName that picks no operation is named, over HTTP and graphql-ws, and counts 1', async () => {
    const query = 'query A { me { credits } } query B { me { plan } }';
    const before = Number((await call({}, `?query=${ME}`)).remaining);
    for (const [operationName, message] of [
      [undefined, 'operationName: the document has 2 operations (A, B); name the one to run'],
      ['Z', 'operationName: the document has no operation named "Z" (it has A, B)'],
    ] as const) {
      const r = await call({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName }) });
      expect(r.status, message).toBe(400);
      expect(r.body.errors?.[0]).toEqual({ message, extensions: { code: 'invalid_request', field: 'operationName' } });
    }
    const last = await call({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName: 'B' }) });
    expect(last.body.data).toEqual({ me: { plan: 'free' } });
    expect(Number(last.remaining)).toBe(before - 3);
    const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const answer = new Promise<{ type: string; payload: { message: string }[] }>((resolve) => socket.on('message', (m) => {
      const message = JSON.parse(String(m));
      if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      else resolve(message);
    }));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${a.key}` } })));
    expect((await answer).payload[0]?.message).toBe('operationName: the document has 2 operations (A, B); name the one to run');
    socket.close();
  });

  it('a batch of more than 10 operations: refused whole, 413 payload_too_large, counted once', async () => {
    const before = Number((await call({}, `?query=${ME}`)).remaining);
    const r = await call({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Array.from({ length: 11 }, () => ({ query: '{ me { credits } }' }))) });
    expect(r.status).toBe(413);
    expect(r.body.errors?.[0]?.extensions).toEqual({ code: 'payload_too_large' });
    expect(Number(r.remaining)).toBe(before - 1);
  });

  it('HEAD: 405 naming the methods, counted, never a 500', async () => {
    for (const query of [`?query=${ME}`, '']) {
      const res = await fetch(`${url}/graphql${query}`, { method: 'HEAD', headers: { authorization: `Bearer ${a.key}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST, OPTIONS');
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    }
  });

  it('a body over 1 MB: 413 in the error shape, counted and stamped like any call, and the connection not offered again', async () => {
    const before = Number((await call({}, `?query=${ME}`)).remaining);
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { credits } }', variables: { pad: 'x'.repeat(1024 * 1024) } }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
    expect(await res.json()).toEqual({ errors: [{ message: 'body: larger than 1 MB', extensions: { code: 'payload_too_large', field: 'body' } }] });
  });

  it('graphql-ws: a message over 1 MB closes the socket (1009) instead of being run', async () => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.on('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${a.key}` } }));
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ me { credits } }', variables: { pad: 'x'.repeat(2 * 1024 * 1024) } } }));
    expect(await closed).toBe(1009);
  });
});
