import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, type ErrorCode, errorStatus } from '../../src/core/errors.js';
import { toGraphQLError } from '../../src/graphql/admission.js';
import { graphqlClient } from '../support/graphql.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { BillingPortalMutation, MeQuery, RegisterConfirmMutation, RotateKeyMutation, UsageQuery } from './operations.js';

let t: TestPodtext;
let gql: ReturnType<typeof graphqlClient>;
beforeAll(async () => {
  t = await startTestPodtext();
  gql = graphqlClient(t);
});
afterAll(() => t.close());

describe('REST and GraphQL give the same answers', () => {
  it('me', async () => {
    const a = await t.account({ credits: 6 });
    const rest = (await (await t.api('GET', '/me', { key: a.key })).json()) as Record<string, unknown>;
    const { data } = await gql(MeQuery, {}, a.key);
    expect(data?.me).toEqual({ credits: rest.credits, plan: rest.plan, email: rest.email, billingManaged: rest.billing_managed, unlocks: [] });
  });

  it('usage', async () => {
    const a = await t.account({ credits: 2 });
    const { data } = await gql(UsageQuery, {}, a.key);
    const rest = (await (await t.api('GET', '/usage', { key: a.key })).json()) as Record<string, unknown>;
    expect(data?.usage).toMatchObject({
      plan: rest.plan,
      creditsAllowance: rest.credits_allowance,
      creditsRemaining: rest.credits_remaining,
      requestLimit: rest.request_limit,
      ledger: [{ kind: 'grant', amount: 2, balanceAfter: 2 }],
    });
    expect(data?.usage.requestsToday).toBe(1);
    expect(rest.requests_today).toBe(2);
  });

  it('rotation over GraphQL retires the key for REST too', async () => {
    const a = await t.account();
    const { data } = await gql(RotateKeyMutation, {}, a.key);
    expect(data?.rotateKey.key).toMatch(/^ptk_/);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(401);
    expect((await t.api('GET', '/me', { key: data!.rotateKey.key })).status).toBe(200);
  });

  it('errors carry the REST code in extensions.code', async () => {
    const a = await t.account();
    const rest = (await (await t.api('POST', '/billing/portal', { key: a.key })).json()) as { error: { code: string } };
    const g = await gql(BillingPortalMutation, {}, a.key);
    expect(g.errors?.[0]?.extensions?.code).toBe(rest.error.code);
    const badToken = await gql(RegisterConfirmMutation, { token: 'nope' });
    expect(badToken.errors?.[0]?.extensions?.code).toBe('invalid_token');
    const noKey = await gql(MeQuery, {});
    expect(noKey.errors?.[0]?.extensions?.code).toBe('unauthorized');
  });

  it('a bad argument is named as GraphQL spells it, where REST names its own field', async () => {
    const a = await t.account({ credits: 1 });
    const rest = (await (await t.api('GET', '/transcripts/NOT-AN-ID', { key: a.key })).json()) as { error: { message: string } };
    expect(rest.error.message).toMatch(/^transcript_id: /);
    const r = await t.gql('{ transcript(transcriptId: "NOT-AN-ID") { __typename } }', {}, a.key);
    expect(r.body.errors?.[0]?.message).toBe(rest.error.message.replace(/^transcript_id/, 'transcriptId'));
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', field: 'transcriptId' });
    // An argument that names nothing is named the same way.
    const missing = await t.gql('{ episode(transcriptId: "0000000000000000") { title } }', {}, a.key);
    expect(missing.body.errors?.[0]?.message).toBe('transcriptId: no episode 0000000000000000 in the index');
    expect(missing.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', field: 'transcriptId' });
    const noShow = await t.gql('{ episodes(feedId: 5, first: 1) { readyCount } }', {}, a.key);
    expect(noShow.body.errors?.[0]?.message).toBe('feedId: no show 5 in the index');
    expect(noShow.body.errors?.[0]?.extensions).toMatchObject({ code: 'not_found', field: 'feedId' });
    expect(((await (await t.api('GET', '/shows/5/episodes', { key: a.key })).json()) as { error: { message: string } }).error.message).toBe('feed_id: no show 5 in the index');
    // unlock's argument is transcriptId, where REST's body field is `transcript`.
    const unlock = await t.gql('mutation { unlock(transcriptId: "NOT-AN-ID") { credits } }', {}, a.key);
    expect(unlock.body.errors?.[0]?.message).toBe('transcriptId: must be 16 lowercase hex characters (^[0-9a-f]{16}$)');
    expect(unlock.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', field: 'transcriptId' });
    expect(((await (await t.api('POST', '/unlock', { key: a.key, body: { transcript: 'NOT-AN-ID' } })).json()) as { error: { message: string } }).error.message).toBe('transcript: must be 16 lowercase hex characters (^[0-9a-f]{16}$)');
    // Arguments named inside the message too, not only before its colon.
    const lookup = await t.gql('{ showLookup { title } }', {}, a.key);
    expect(lookup.body.errors?.[0]?.message).toBe('appleId, feedUrl, url: give at least one of appleId, feedUrl or url');
    expect(lookup.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', field: 'appleId, feedUrl, url' });
    expect(((await (await t.api('GET', '/shows/lookup', { key: a.key })).json()) as { error: { message: string } }).error.message).toBe('apple_id, feed_url, url: give at least one of apple_id, feed_url or url');
  });

  it('a refused input gets the same words on both: the core checks it once', async () => {
    const a = await t.account({ credits: 1 });
    const restMessage = async (path: string, body: unknown, key?: string) => ((await (await t.api('POST', path, { key, body })).json()) as { error: { message: string } }).error.message;
    const episode = (i: number, secs?: number) => ({ guid: `parity-${i}`, url: `https://audio.example.com/${i}.mp3`, ...(secs === undefined ? {} : { secs }) });
    const request = `mutation($input: TranscriptionRequestInput!) { requestTranscription(input: $input) { queued } }`;
    for (const [episodes, field] of [
      [Array.from({ length: 26 }, (_, i) => episode(i)), 'episodes'],
      [[episode(1, -5)], 'episodes.0.secs'],
      [[episode(1, 10_000_000)], 'episodes.0.secs'],
    ] as const) {
      const rest = await restMessage('/requests', { episodes }, a.key);
      expect(rest.startsWith(`${field}: `), rest).toBe(true);
      const g = await t.gql(request, { input: { episodes } }, a.key);
      expect(g.body.errors?.[0]?.message).toBe(rest);
    }
    const long = `${'a'.repeat(250)}@example.com`;
    const rest = await restMessage('/register/start', { email: long });
    const g = await t.gql('mutation($email: String!) { registerStart(email: $email) { ok } }', { email: long });
    expect(rest).toBe('email: not a valid email address');
    expect(g.body.errors?.[0]?.message).toBe(rest);
  });

  it('every domain error code maps to one status and the same GraphQL code', () => {
    for (const code of Object.keys(errorStatus) as ErrorCode[]) {
      const e = toGraphQLError(new DomainError(code, 'x'));
      expect(e.extensions.code).toBe(code);
      expect((e.extensions.http as { status: number }).status).toBe(errorStatus[code]);
    }
    expect(toGraphQLError(new Error('secret database detail')).message).not.toContain('secret');
  });
});
