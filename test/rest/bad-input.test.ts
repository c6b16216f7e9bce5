import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

async function expectError(res: Response, status: number, code: string, field?: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  if (field) expect(body.error.message.startsWith(`${field}:`)).toBe(true);
}

describe('bad input gets a clear 4xx in the error body and writes nothing', () => {
  it('malformed JSON', async () => {
    await expectError(await t.api('POST', '/register/start', { body: '{"email": "a@b.c"' }), 400, 'invalid_request', 'body');
  });
  it('a body without a JSON content type, or an empty one: 400 naming the body (one code, one status)', async () => {
    const form = await t.request('/api/v1/register/start', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '{"email":"a@b.c"}' });
    await expectError(form, 400, 'invalid_request', 'body');
    await expectError(await t.api('POST', '/register/start', { body: '' }), 400, 'invalid_request', 'body');
  });
  it('wrong types and missing fields name the field', async () => {
    await expectError(await t.api('POST', '/register/start', { body: { email: 42 } }), 400, 'invalid_request', 'email');
    await expectError(await t.api('POST', '/register/start', { body: {} }), 400, 'invalid_request', 'email');
    await expectError(await t.api('POST', '/register/confirm', { body: { token: ['x'] } }), 400, 'invalid_request', 'token');
    // A field the body does not have is named, not ignored.
    await expectError(await t.api('POST', '/register/start', { body: { email: 'a@example.com', Email: 'b@example.com' } }), 400, 'invalid_request', 'Email');
  });
  it('NUL characters: 400 naming the field, not a database 500', async () => {
    await expectError(await t.api('POST', '/register/start', { body: { email: 'a\u0000@example.com' } }), 400, 'invalid_request', 'email');
    await expectError(await t.api('POST', '/register/confirm', { body: { token: 'abc\u0000' } }), 400, 'invalid_request', 'token');
  });
  it('a lone surrogate escaped in JSON ("\\ud800"): 400 naming the field, not stored as U+FFFD', async () => {
    const res = await t.api('POST', '/register/confirm', { body: '{"token": "abc\\ud800"}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: 'token: contains a lone surrogate (half of a UTF-16 pair, no character)' } });
    // A pair is one character, read as before.
    await expectError(await t.api('POST', '/register/confirm', { body: '{"token": "abc\\ud83d\\ude00"}' }), 400, 'invalid_token');
  });
  it('JSON nested 10,000 deep: 400', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    await expectError(await t.api('POST', '/register/start', { body: `{"email": ${deep}}` }), 400, 'invalid_request');
  });
  it('bodies over 1 MB: 413', async () => {
    const big = JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 10) });
    await expectError(await t.api('POST', '/register/start', { body: big }), 413, 'payload_too_large');
  });
  it('unknown routes: 404 in the error body', async () => {
    await expectError(await t.api('GET', '/nope'), 404, 'not_found');
  });
  it('a trailing slash reaches the same route, counted as the door counts it', async () => {
    const id = t.podtext.services.transcripts.sampleTranscriptId;
    const sample = await t.api('GET', `/transcripts/${id}/`);
    expect(sample.status).toBe(200);
    expect(((await sample.json()) as { transcript_id: string }).transcript_id).toBe(id);
    await expectError(await t.api('GET', '/nope/'), 404, 'not_found');
  });
  it('nothing was written by any of the above', async () => {
    expect(await t.podtext.services.db.registrationAttempt.count()).toBe(0);
    expect(await t.podtext.services.db.account.count()).toBe(0);
  });
  it('a body that is not UTF-8 (Latin-1, an encoded lone surrogate): 400 naming the body, not stored as U+FFFD', async () => {
    const a = await t.account({ credits: 5 });
    const latin1 = Buffer.concat([Buffer.from('{"episodes":[{"guid":"g-latin1","url":"https://a.example/1.mp3","title":"caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]);
    const surrogate = Buffer.concat([Buffer.from('{"episodes":[{"guid":"g-'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","url":"https://a.example/1.mp3"}]}')]);
    for (const body of [latin1, surrogate]) {
      const res = await t.request('/api/v1/requests', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json; charset=iso-8859-1' }, body });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: 'body: not valid UTF-8 (JSON is sent as UTF-8)' } });
    }
    expect(await t.podtext.services.db.job.count({ where: { accountId: a.accountId } })).toBe(0);
    // UTF-8, with or without a byte order mark, is read as before.
    const bom = await t.request('/api/v1/requests', { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, body: Buffer.from('\ufeff{"dry_run":true,"episodes":[{"guid":"g-bom","url":"https://a.example/1.mp3","title":"caf\u00e9"}]}') });
    expect(bom.status).toBe(200);
  });
  it('a 16 KB header: 431 over a real socket, with the error body and the rate-limit headers of a call not counted', async () => {
    const url = await t.podtext.listen();
    const res = await fetch(`${url}/api/v1/me`, { headers: { origin: 'https://app.example.com', 'x-padding': 'a'.repeat(16 * 1024) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ error: { code: 'header_too_large', message: 'headers: larger than 16 KB' } });
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1000');
    // A page can read why, as it can any other refusal.
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
  });
  it('a request that is not HTTP (a body longer than its Content-Length says): 400 with the same headers', async () => {
    // The server the test above started: Podtext listens once.
    const url = new URL(t.podtext.url ?? (await t.podtext.listen()));
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('POST /api/v1/register/start HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}garbage that is no request line\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    // The first request is answered; what follows it is not HTTP.
    const last = raw.slice(raw.lastIndexOf('HTTP/1.1 '));
    expect(last).toMatch(/^HTTP\/1\.1 400 /);
    expect(last).toMatch(/\r\nx-ratelimit-limit: 1000\r\n/i);
    expect(last).toMatch(/\r\nx-ratelimit-remaining: 1000\r\n/i);
    expect(last).toContain('{"error":{"code":"invalid_request","message":"request: malformed HTTP"}}');
  });
  it('a request line no URL can hold (a backslash in the path, `*`, a bad Host): 400 in the error body with the same headers, not an empty 400', async () => {
    const url = new URL(t.podtext.url ?? (await t.podtext.listen()));
    const send = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
        let text = '';
        socket.on('data', (d) => (text += d.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
    const cases: [string, string][] = [
      ['GET /api/v1\\me HTTP/1.1\r\nHost: x', 'request: backslash in request path'],
      ['GET * HTTP/1.1\r\nHost: x', 'request: invalid URL'],
      ['GET /api/v1/me HTTP/1.1\r\nHost: a b', 'request: invalid URL'],
    ];
    for (const [head, message] of cases) {
      const raw = await send(head);
      expect(raw, head).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw).toMatch(/\r\ncontent-type: application\/json\r\n/i);
      expect(raw).toMatch(/\r\nx-ratelimit-limit: 1000\r\n/i);
      expect(raw).toMatch(/\r\nx-ratelimit-remaining: 1000\r\n/i);
      expect(raw).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
      expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ error: { code: 'invalid_request', message } }));
    }
  });
});

describe('validation messages', () => {
  it('says what is wrong in plain words, not in the validator\'s', async () => {
    const a = await t.account();
    const message = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;
    expect(await message(await t.api('POST', '/register/start', { body: {} }))).toBe('email: required');
    expect(await message(await t.api('POST', '/register/start', { body: { email: 42 } }))).toBe('email: must be a string');
    expect(await message(await t.api('POST', '/requests', { key: a.key, body: {} }))).toBe('episodes: required');
    expect(await message(await t.api('POST', '/requests', { key: a.key, body: { episodes: 'x' } }))).toBe('episodes: must be a list');
    expect(await message(await t.api('POST', '/requests', { key: a.key, body: { episodes: [{}] } }))).toBe('episodes.0.guid: required');
    expect(await message(await t.api('GET', '/search', { key: a.key }))).toBe('q: required');
    // A parameter sent twice is said to be so, not to be of the wrong type.
    expect(await message(await t.api('GET', '/search?q=a&q=b', { key: a.key }))).toBe('q: given more than once; send it once');
    expect(await message(await t.api('GET', '/shows/999999999999/episodes?max=2&max=3', { key: a.key }))).toBe('max: given more than once; send it once');
    // Also where the value is one of a list: `format=srt&format=srt` is not told srt is not a format.
    expect(await message(await t.api('GET', '/transcripts/97ab7f764b594d58?format=srt&format=srt', { key: a.key }))).toBe('format: given more than once; send it once');
    expect(await message(await t.api('GET', '/transcripts/97ab7f764b594d58?timestamps=1&timestamps=1'))).toBe('timestamps: given more than once; send it once');
    expect(await message(await t.api('POST', '/register/start', { body: { email: ['a@example.com'] } }))).toBe('email: must be a string');
    // One rule, one message: what is not a URL and an http URL are both told to be https.
    for (const webhook_url of ['not a url', 'http://example.com/hook']) {
      const res = await t.api('POST', '/requests', { key: a.key, body: { episodes: [{ guid: 'g-1', url: 'https://audio.example.com/1.mp3' }], webhook_url } });
      expect(await message(res), webhook_url).toBe('webhook_url: must be an https:// URL');
    }
    // Escapes that are not UTF-8 are refused, not searched for as typed.
    for (const q of ['%FF', '%E0%A4%A', 'caf%C3']) expect(await message(await t.api('GET', `/search?q=${q}`, { key: a.key })), q).toBe('q: not valid percent-encoded UTF-8');
    expect((await t.api('GET', `/search?q=${encodeURIComponent('café ☕')}`, { key: a.key })).status).toBe(200);
  });
});
