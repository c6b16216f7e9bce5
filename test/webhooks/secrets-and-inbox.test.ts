import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/fake-clock.js';
import { graphqlClient } from '../support/graphql.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { CreateWebhookInboxMutation, RotateWebhookSecretMutation, WebhookInboxQuery, WebhookSecretQuery } from '../graphql/operations.js';

const clock = fakeClock('2026-03-10T12:00:00Z');
let t: TestPodtext;
let gql: ReturnType<typeof graphqlClient>;
beforeAll(async () => {
  t = await startTestPodtext({ clock });
  gql = graphqlClient(t);
});
afterAll(() => t.close());

type Inbox = { id: string; url: string; deliveries_url: string; expires_at: string };
type Contents = { deliveries: { received_at: string; headers: Record<string, string>; body: unknown; raw_body: string }[] };

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
const send = (path: string, body: string, headers: Record<string, string> = {}) =>
  t.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('GET and POST /webhooks/secret', () => {
  it('creates the secret on the first call, returns the same one after, and stores it sealed', async () => {
    const a = await t.account();
    const first = await t.api('GET', '/webhooks/secret', { key: a.key });
    expect(first.status).toBe(200);
    const body = await json<{ secret: string; header: string; scheme: string }>(first);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(body.header).toBe('X-Service-Signature');
    expect(body.scheme).toContain('HMAC-SHA256');
    expect(first.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect((await json<{ secret: string }>(await t.api('GET', '/webhooks/secret', { key: a.key }))).secret).toBe(body.secret);
    const row = await t.podtext.services.db.webhookSecret.findUniqueOrThrow({ where: { accountId: a.accountId } });
    expect(row.sealedSecret).not.toContain(body.secret.slice(6));
    const b = await t.account();
    expect((await json<{ secret: string }>(await t.api('GET', '/webhooks/secret', { key: b.key }))).secret).not.toBe(body.secret);
  });

  it('concurrent first calls agree on one secret', async () => {
    const a = await t.account();
    const all = await Promise.all(Array.from({ length: 5 }, () => t.api('GET', '/webhooks/secret', { key: a.key }).then((r) => json<{ secret: string }>(r))));
    expect(new Set(all.map((x) => x.secret)).size).toBe(1);
  });

  it('POST rotates; the new secret is what GET returns', async () => {
    const a = await t.account();
    const before = (await json<{ secret: string }>(await t.api('GET', '/webhooks/secret', { key: a.key }))).secret;
    const res = await t.api('POST', '/webhooks/secret', { key: a.key });
    expect(res.status).toBe(200);
    const rotated = await json<{ secret: string; rotated: boolean }>(res);
    expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_/), rotated: true });
    expect(rotated.secret).not.toBe(before);
    expect((await json<{ secret: string }>(await t.api('GET', '/webhooks/secret', { key: a.key }))).secret).toBe(rotated.secret);
  });

  it('POST on a key that never had a secret creates the first one and says nothing was rotated', async () => {
    const a = await t.account();
    const first = await json<{ secret: string; rotated: boolean }>(await t.api('POST', '/webhooks/secret', { key: a.key }));
    expect(first).toEqual({ secret: expect.stringMatching(/^whsec_/), rotated: false });
    expect((await json<{ secret: string }>(await t.api('GET', '/webhooks/secret', { key: a.key }))).secret).toBe(first.secret);
    expect((await json<{ rotated: boolean }>(await t.api('POST', '/webhooks/secret', { key: a.key }))).rotated).toBe(true);
  });

  it('needs a key', async () => {
    expect((await t.api('GET', '/webhooks/secret')).status).toBe(401);
    expect((await t.api('POST', '/webhooks/inbox')).status).toBe(401);
  });
});

describe('test inboxes', () => {
  it('POST /webhooks/inbox gives a receiver under the site and a deliveries URL under the API', async () => {
    const a = await t.account();
    const res = await t.api('POST', '/webhooks/inbox', { key: a.key });
    expect(res.status).toBe(200);
    const inbox = await json<Inbox>(res);
    expect(inbox.url).toBe(`http://podtext.test/hooks/inbox/${inbox.id}`);
    expect(inbox.deliveries_url).toBe(`http://podtext.test/api/v1/webhooks/inbox/${inbox.id}`);
    expect(new Date(inbox.expires_at).getTime() - clock.now().getTime()).toBe(24 * 3600_000);
    expect(await json<Contents>(await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key }))).toMatchObject({ deliveries: [] });
  });

  it('receives from anyone without a key and shows headers, parsed body and the raw body', async () => {
    const a = await t.account();
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    const raw = '{"hello": "wörld",  "n": 1}';
    const got = await send(new URL(inbox.url).pathname, raw, { 'x-custom': 'yes' });
    expect(got.status).toBe(200);
    expect(await send(new URL(inbox.url).pathname, 'plain text, not JSON', { 'content-type': 'text/plain' })).toHaveProperty('status', 200);
    const { deliveries } = await json<Contents>(await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key }));
    expect(deliveries).toHaveLength(2);
    expect(deliveries[0]).toMatchObject({ received_at: clock.now().toISOString(), body: { hello: 'wörld', n: 1 }, raw_body: raw });
    expect(deliveries[0]!.headers['x-custom']).toBe('yes');
    expect(deliveries[1]).toMatchObject({ body: 'plain text, not JSON', raw_body: 'plain text, not JSON' });
  });

  it('a body nested 100,000 deep, sent by anyone, leaves the inbox readable: shown as its text', async () => {
    const a = await t.account();
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect((await send(new URL(inbox.url).pathname, deep)).status).toBe(200);
    expect((await send(new URL(inbox.url).pathname, '{"after": true}')).status).toBe(200);
    const res = await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key });
    expect(res.status).toBe(200);
    const { deliveries } = await json<Contents>(res);
    expect(deliveries.map((d) => d.body)).toEqual([deep, { after: true }]);
  });

  it("another account's inbox and an unknown one: 404", async () => {
    const a = await t.account();
    const b = await t.account();
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    const other = await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: b.key });
    expect(other.status).toBe(404);
    expect((await json<{ error: { code: string } }>(other)).error.code).toBe('not_found');
    expect((await t.api('GET', `/webhooks/inbox/${randomUUID()}`, { key: a.key })).status).toBe(404);
    expect((await t.api('GET', '/webhooks/inbox/not-a-uuid', { key: a.key })).status).toBe(404);
    expect((await send(`/hooks/inbox/${randomUUID()}`, '{}')).status).toBe(404);
    expect((await send('/hooks/inbox/not-a-uuid', '{}')).status).toBe(404);
  });

  it('a job whose webhook_url names a test inbox that does not exist is refused before it is made, naming webhook_url', async () => {
    const a = await t.account({ credits: 2 });
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    const body = (webhook_url: string) => ({ dry_run: true, webhook_url, episodes: [{ guid: `inbox-${randomUUID()}`, url: 'https://media.example/a.mp3' }] });
    expect((await t.api('POST', '/requests', { key: a.key, body: body(inbox.url) })).status).toBe(200);
    const gone = await t.api('POST', '/requests', { key: a.key, body: body(inbox.url.replace(inbox.id, randomUUID())) });
    expect(gone.status).toBe(400);
    expect((await json<{ error: { message: string } }>(gone)).error.message).toMatch(/^webhook_url: no live test inbox has this address/);
    // The receiver's own 404 speaks of no key: anyone may send to an inbox.
    expect(await (await send(`/hooks/inbox/${randomUUID()}`, '{}')).text()).toContain('No such webhook inbox, or it has expired.');
  });

  it('keeps the newest 100 deliveries', async () => {
    const a = await t.account();
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    for (let i = 1; i <= 105; i++) expect((await send(`/hooks/inbox/${inbox.id}`, JSON.stringify({ i }))).status).toBe(200);
    const { deliveries } = await json<Contents>(await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key }));
    expect(deliveries).toHaveLength(100);
    expect(deliveries[0]!.body).toEqual({ i: 6 });
    expect(deliveries[99]!.body).toEqual({ i: 105 });
  });

  it('a body up to 256 KB is kept; a bigger one gets 413 and is not stored', async () => {
    const a = await t.account();
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    const fits = JSON.stringify({ pad: 'x'.repeat(256 * 1024 - 10) });
    expect(Buffer.byteLength(fits)).toBe(256 * 1024);
    expect((await send(`/hooks/inbox/${inbox.id}`, fits)).status).toBe(200);
    const tooBig = await send(`/hooks/inbox/${inbox.id}`, `${fits} `);
    expect(tooBig.status).toBe(413);
    expect((await json<{ error: { code: string } }>(tooBig)).error.code).toBe('payload_too_large');
    const { deliveries } = await json<Contents>(await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key }));
    expect(deliveries).toHaveLength(1);
  });

  it('an account keeps its newest 10 inboxes: making an 11th deletes the oldest with what it received', async () => {
    const a = await t.account();
    const made: Inbox[] = [];
    for (let i = 0; i < 11; i++) {
      made.push(await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key })));
      clock.advance(1000);
    }
    expect((await send(`/hooks/inbox/${made[0]!.id}`, '{}')).status).toBe(404);
    expect((await t.api('GET', `/webhooks/inbox/${made[0]!.id}`, { key: a.key })).status).toBe(404);
    for (const inbox of made.slice(1)) expect((await send(`/hooks/inbox/${inbox.id}`, '{}')).status).toBe(200);
    expect(await t.podtext.services.db.webhookInbox.count({ where: { accountId: a.accountId } })).toBe(10);
    // Made at the same instant, the newest is still the one kept.
    const same = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    expect((await send(`/hooks/inbox/${same.id}`, '{}')).status).toBe(200);
    expect(await t.podtext.services.db.webhookInbox.count({ where: { accountId: a.accountId } })).toBe(10);
  });

  it('expires after 24 hours: reading and sending both get 404', async () => {
    const a = await t.account();
    const inbox = await json<Inbox>(await t.api('POST', '/webhooks/inbox', { key: a.key }));
    clock.advance(24 * 3600_000 - 1000);
    expect((await send(`/hooks/inbox/${inbox.id}`, '{}')).status).toBe(200);
    expect((await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key })).status).toBe(200);
    clock.advance(1000);
    expect((await send(`/hooks/inbox/${inbox.id}`, '{}')).status).toBe(404);
    expect((await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key })).status).toBe(404);
    expect(await t.podtext.services.webhooks.purgeExpiredInboxes()).toBeGreaterThanOrEqual(1);
    expect(await t.podtext.services.db.webhookInbox.count({ where: { id: inbox.id } })).toBe(0);
    expect(await t.podtext.services.db.webhookInboxDelivery.count({ where: { inboxId: inbox.id } })).toBe(0);
  });
});

describe('GraphQL gives the same answers', () => {
  it('webhookSecret and rotateWebhookSecret', async () => {
    const a = await t.account();
    const rest = await json<{ secret: string; header: string; scheme: string }>(await t.api('GET', '/webhooks/secret', { key: a.key }));
    expect((await gql(WebhookSecretQuery, {}, a.key)).data?.webhookSecret).toEqual(rest);
    const rotated = (await gql(RotateWebhookSecretMutation, {}, a.key)).data!.rotateWebhookSecret;
    expect(rotated.rotated).toBe(true);
    expect((await json<{ secret: string }>(await t.api('GET', '/webhooks/secret', { key: a.key }))).secret).toBe(rotated.secret);
  });

  it('createWebhookInbox and webhookInbox(id); another account gets not_found', async () => {
    const a = await t.account();
    const b = await t.account();
    const inbox = (await gql(CreateWebhookInboxMutation, {}, a.key)).data!.createWebhookInbox;
    expect(inbox.url).toBe(`http://podtext.test/hooks/inbox/${inbox.id}`);
    expect(inbox.deliveriesUrl).toBe(`http://podtext.test/api/v1/webhooks/inbox/${inbox.id}`);
    await send(`/hooks/inbox/${inbox.id}`, '{"a":1}', { 'x-test': 'gql' });
    const read = (await gql(WebhookInboxQuery, { id: inbox.id }, a.key)).data!.webhookInbox;
    expect(read.deliveries).toHaveLength(1);
    expect(read.deliveries[0]!.body).toBe('{"a":1}');
    expect(read.deliveries[0]!.headers).toContainEqual({ name: 'x-test', value: 'gql' });
    const rest = await json<Contents>(await t.api('GET', `/webhooks/inbox/${inbox.id}`, { key: a.key }));
    expect(rest.deliveries[0]!.raw_body).toBe(read.deliveries[0]!.body);
    const other = await gql(WebhookInboxQuery, { id: inbox.id }, b.key);
    expect(other.errors?.[0]?.extensions?.code).toBe('not_found');
  });
});
