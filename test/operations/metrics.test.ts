import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueOrJoinTask } from '../../src/core/jobs/task-queue.js';
import * as ledger from '../../src/core/ledger.js';
import { plans } from '../../src/core/pricing.js';
import { inTransaction } from '../../src/core/transaction.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

const TOKEN = 'metrics-token-for-the-test';
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => t.close());

/** The Prometheus text as `{ 'name{labels}': value }`, labels in the order printed. */
async function scrape(): Promise<Map<string, number>> {
  const res = await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const sample = (s: Map<string, number>, key: string) => s.get(key) ?? 0;

describe('GET /metrics', () => {
  it('needs the METRICS_TOKEN when one is set', async () => {
    expect((await t.request('/metrics')).status).toBe(401);
    expect((await t.request('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const body = (await (await t.request('/metrics')).json()) as { error: { code: string } };
    expect(body.error.code).toBe('unauthorized');
  });

  it('exposes the known series of its counters from the start, at 0, so the first event is an increase', async () => {
    const s = await scrape();
    for (const series of [
      'podtext_mails_total{outcome="failed"}',
      'podtext_webhook_attempts_total{outcome="failed",attempt="1"}',
      'podtext_webhook_attempts_total{outcome="dropped",attempt="6"}',
      'podtext_feed_refreshes_total{outcome="failed"}',
      'podtext_credits_total{kind="refund",reason="ai_search"}',
    ]) expect(s.get(series), series).toBe(0);
  });

  it('counts known traffic by route template, status, GraphQL operation, metering and refusal', async () => {
    const before = await scrape();
    const a = await t.account({ credits: 5 });
    for (let i = 0; i < 3; i++) expect((await t.api('GET', '/me', { key: a.key })).status).toBe(200);
    expect((await t.api('GET', '/shows/123456789', { key: a.key })).status).toBe(404);
    expect((await t.api('GET', '/shows/987654321', { key: a.key })).status).toBe(404);
    expect((await t.request('/no/such/page')).status).toBe(404);
    expect((await t.gql('query MyCredits { me { credits } }', {}, a.key)).status).toBe(200);
    const missing = await t.gql('query ShowEpisodes { episodes(feedId: 123456789) { nodes { title } } }', {}, a.key);
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('not_found');
    // Two root fields are two calls against the allowance, and two in the metric.
    expect((await t.gql('query Both { me { credits } again: me { plan } }', {}, a.key)).status).toBe(200);
    // Refused at the door (no key): never executed, so counted by status, not as an operation.
    expect((await t.gql('query MyCredits { me { credits } }')).status).toBe(401);

    const after = await scrape();
    const delta = (key: string) => sample(after, key) - sample(before, key);
    expect(delta('podtext_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="200"}')).toBe(3);
    expect(delta('podtext_http_request_duration_seconds_count{method="GET",route="/api/v1/shows/:feed_id",status="404"}')).toBe(2);
    expect(delta('podtext_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(1);
    const graphqlCalls = (s: Map<string, number>) =>
      [...s].filter(([k]) => k.startsWith('podtext_http_request_duration_seconds_count{method="POST",route="/graphql",')).reduce((n, [, v]) => n + v, 0);
    expect(graphqlCalls(after) - graphqlCalls(before)).toBe(4);
    expect(delta('podtext_http_request_duration_seconds_count{method="POST",route="/graphql",status="401"}')).toBe(1);
    // Never a raw path with an id in it.
    expect([...after.keys()].some((k) => k.includes('123456789'))).toBe(false);
    expect(delta('podtext_graphql_operations_total{type="query",name="MyCredits",errors="false"}')).toBe(1);
    expect(delta('podtext_graphql_operations_total{type="query",name="ShowEpisodes",errors="true"}')).toBe(1);
    expect(delta('podtext_graphql_operations_total{type="query",name="MyCredits",errors="true"}')).toBe(0);
    // Nine calls counted against the key's allowance: 3 + 2 REST (a 404 counts too), 1 + 1 + 2 GraphQL; the keyless one counts nothing.
    expect(delta('podtext_requests_metered_total')).toBe(9);
    const usage = (await (await t.api('GET', '/usage', { key: a.key })).json()) as { requests_today: number };
    expect(usage.requests_today).toBe(10);
    // The duration histogram has buckets in seconds.
    expect(after.has('podtext_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/me",status="200"}')).toBe(true);
    // Node's own metrics are there too.
    expect(after.has('process_resident_memory_bytes')).toBe(true);
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('counts 429 refusals once the daily allowance is spent', async () => {
    const a = await t.account();
    const before = await scrape();
    for (let i = 0; i < plans.free.dailyRequests; i++) await t.api('GET', '/me', { key: a.key });
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(429);
    expect((await t.api('GET', '/me', { key: a.key })).status).toBe(429);
    const after = await scrape();
    expect(sample(after, 'podtext_requests_refused_total') - sample(before, 'podtext_requests_refused_total')).toBe(2);
    expect(
      sample(after, 'podtext_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="429"}') -
        sample(before, 'podtext_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="429"}'),
    ).toBe(2);
  });

  it('a subscription asked for as plain JSON is refused with 406 in the error body, counted, and leaves none open', async () => {
    const a = await t.account();
    const before = await scrape();
    const res = await t.request('/graphql', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${a.key}` },
      body: JSON.stringify({ query: 'subscription { myJobsUpdated { id } }' }),
    });
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-remaining')).toBe(String(plans.free.dailyRequests - 1));
    const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toEqual({ code: 'invalid_request' });
    expect(body.errors[0]!.message).toMatch(/text\/event-stream/);
    const after = await scrape();
    expect(sample(after, 'podtext_graphql_subscriptions_open')).toBe(sample(before, 'podtext_graphql_subscriptions_open'));
  });

  it('subscriptions in a batch get an error each, whatever the Accept, and none is left running', async () => {
    const a = await t.account();
    const before = await scrape();
    for (const accept of ['application/json', 'text/event-stream']) {
      const res = await t.request('/graphql', {
        method: 'POST',
        headers: { accept, 'content-type': 'application/json', authorization: `Bearer ${a.key}` },
        body: JSON.stringify([{ query: 'subscription { myJobsUpdated { id } }' }, { query: '{ me { credits } }' }, { query: 'subscription { myJobsUpdated { status } }' }]),
      });
      const text = await res.text();
      const body = JSON.parse(accept === 'application/json' ? text : /^data: (.*)$/m.exec(text)![1]!) as { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] }[];
      expect(body, accept).toHaveLength(3);
      for (const i of [0, 2]) {
        expect(body[i]!.errors?.[0]?.extensions, accept).toEqual({ code: 'invalid_request' });
        expect(body[i]!.errors?.[0]?.message).toMatch(/cannot be part of a batch/);
      }
      expect(body[1]!.data).toEqual({ me: { credits: expect.any(Number) } });
    }
    const after = await scrape();
    expect(sample(after, 'podtext_graphql_subscriptions_open')).toBe(sample(before, 'podtext_graphql_subscriptions_open'));
  });

  it('reads the queue and the ledger from the database: tasks by state and lane, oldest age, credits by reason', async () => {
    const { db } = t.podtext.services;
    const a = await t.account({ credits: 10 });
    await inTransaction(db, async (tx) => {
      await ledger.charge(tx, a.accountId, 3, `unlock:${a.accountId}:x`, 'unlock');
      await ledger.charge(tx, a.accountId, 2, `job:${a.accountId}:y`, 'job');
      await ledger.charge(tx, a.accountId, 1, `job:${a.accountId}:y:premium`, 'premium');
    });
    await inTransaction(db, (tx) => ledger.refund(tx, `job:${a.accountId}:y`, 'failed'));
    await inTransaction(db, (tx) =>
      queueOrJoinTask(tx, { transcriptId: sampleEpisode.transcriptId, lane: 'fast', audioUrl: 'http://audio.test/a.mp3', audioSeconds: 60, maxSeconds: 3600, maxAttempts: 3, leaseSeconds: 60, retryDelaySeconds: 1 }),
    );
    await db.$executeRaw`UPDATE transcription_tasks SET created_at = now() - interval '90 seconds' WHERE transcript_id = ${sampleEpisode.transcriptId}`;
    const s = await scrape();
    expect(sample(s, 'podtext_tasks{state="queued",lane="fast"}')).toBe(1);
    expect(sample(s, 'podtext_tasks{state="running",lane="standard"}')).toBe(0);
    expect(sample(s, 'podtext_task_oldest_queued_seconds{lane="fast"}')).toBeGreaterThanOrEqual(89);
    expect(sample(s, 'podtext_task_oldest_queued_seconds{lane="standard"}')).toBe(0);
    expect(sample(s, 'podtext_credits_total{kind="charge",reason="unlock"}')).toBe(3);
    expect(sample(s, 'podtext_credits_total{kind="charge",reason="transcription"}')).toBe(2);
    expect(sample(s, 'podtext_credits_total{kind="charge",reason="fast_premium"}')).toBe(1);
    expect(sample(s, 'podtext_credits_total{kind="refund",reason="transcription"}')).toBe(2);
    // A second scrape adds nothing new.
    expect(sample(await scrape(), 'podtext_credits_total{kind="charge",reason="unlock"}')).toBe(3);
    expect(s.has('podtext_search_index_shows')).toBe(true);
  });
});

describe('GET /livez and /readyz', () => {
  it('answer keyless, unmetered, and are in openapi.json', async () => {
    const live = await t.request('/livez');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    expect(ready.headers.get('x-ratelimit-limit')).toBeNull();
    const doc = (await (await t.request('/openapi.json')).json()) as { paths: Record<string, { get?: { operationId?: string }; servers?: { url: string }[] }> };
    expect(doc.paths['/livez']?.get?.operationId).toBe('getLivez');
    expect(doc.paths['/readyz']?.get?.operationId).toBe('getReadyz');
    expect(doc.paths['/readyz']?.servers?.[0]?.url).toBe('http://podtext.test');
  });
});
