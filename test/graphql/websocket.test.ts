import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

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

  it('a bad key closes with 4403', async () => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer ptk_nope' } })));
    expect(await closeCode(socket)).toBe(4403);
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
});
