import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { JobQuery, JobsQuery, JobUpdatedSubscription, MyJobsUpdatedSubscription, RequestTranscriptionMutation } from '../graphql/operations.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { graphqlClient } from '../support/graphql.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { getJob, postRequest, type Wire } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';

let t: TestPodtext;
let audio: AudioServer;
let gql: ReturnType<typeof graphqlClient>;
let wsUrl: string;

beforeAll(async () => {
  audio = await startAudioServer();
  audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '2', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://127.0.0.1:9/v1' }, jobs: { workers: { pollMs: 200 } } });
  gql = graphqlClient(t);
  wsUrl = `${(await t.podtext.listen()).replace('http', 'ws')}/graphql`;
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
});

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
function camelise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelise);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), camelise(x)]));
  return v;
}
/** The REST job as GraphQL names it, without the clock-dependent estimate. */
function comparable(job: Wire) {
  const { estimatedReadyAt: _a, ...rest } = camelise(job) as Wire;
  return rest;
}

describe('REST and GraphQL agree on jobs', () => {
  it('requestTranscription (dry run and real), job and jobs match POST /requests and GET /jobs', async () => {
    const held = await addEpisode(t, { doc: sampleDoc(), title: 'Held' });
    const a = await t.account({ credits: 10 });
    const b = await t.account({ credits: 10 });
    const input = (guid: string) => ({ episodes: [{ guid: held.guid, url: 'https://x.example/h.mp3' }, { guid, url: audio.url('/missing.mp3'), secs: 4000 }], fast: true });

    const guidA = newGuid();
    const restQuote = (await postRequest(t, a.key, { ...input(guidA), dry_run: true })).body;
    const gqlQuote = (await gql(RequestTranscriptionMutation, { input: { ...input(guidA), dryRun: true } }, a.key)).data!.requestTranscription;
    const { estimatedReadyAt: _q1, ...restQ } = camelise(restQuote) as Wire;
    const { estimatedReadyAt: _q2, ...gqlQ } = gqlQuote as Wire;
    expect(gqlQ).toEqual(restQ);

    // The same request by two accounts, one through each API.
    const rest = (await postRequest(t, a.key, input(newGuid()))).body;
    const viaGql = (await gql(RequestTranscriptionMutation, { input: input(newGuid()) }, b.key)).data!.requestTranscription;
    // Ids, titles, addresses and the estimate differ between the two (the first job is ahead of the second); the shape may not.
    const ep = (e: Wire) => ({ ...e, transcriptId: 'x', title: e.title === 'Held' ? e.title : 'x' });
    const eta = { estimatedReadyAt: 'x', estimatedSeconds: 0, promiseSeconds: 0, queueAheadEpisodes: 0, pollAfterSeconds: 0 };
    const shape = (r: Wire) => ({ ...r, ...eta, requestId: 'x', delivery: 'x', notify: 'x', job: { ...r.job, ...eta, id: 'x', pollUrl: 'x', createdAt: 'x', episodes: r.job.episodes.map(ep) }, episodes: r.episodes.map(ep) });
    expect(shape(viaGql as Wire)).toEqual(shape(camelise(rest) as Wire));

    const one = (await gql(JobQuery, { id: rest.job.id }, a.key)).data!.job;
    expect(comparable(one)).toEqual(comparable(await getJob(t, a.key, rest.job.id)));
    const list = (await gql(JobsQuery, { first: 1 }, a.key)).data!.jobs;
    const restList = (await (await t.api('GET', '/jobs?per=1', { key: a.key })).json()) as Wire;
    expect(list).toMatchObject({ totalCount: restList.total, hasNextPage: restList.has_more });
    expect(list.edges.map((e) => comparable(e.node))).toEqual(restList.jobs.map(comparable));
    const next = (await gql(JobsQuery, { first: 1, after: list.endCursor }, a.key)).data!.jobs;
    expect(next.edges).toHaveLength(0);

    const theirs = await gql(JobQuery, { id: rest.job.id }, b.key);
    expect(theirs.errors?.[0]?.extensions?.code).toBe('not_found');
    const tooMany = await gql(RequestTranscriptionMutation, { input: { episodes: Array.from({ length: 26 }, () => ({ guid: newGuid(), url: 'https://x.example/a.mp3' })) } }, a.key);
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('invalid_request');
    expect(tooMany.errors?.[0]?.message).toMatch(/^episodes: at most 25/);
  });
});

describe('jobs(after:) pages', () => {
  it('neither repeat nor skip a job when new ones are created between pages; another account\'s cursor is refused', async () => {
    const a = await t.account({ credits: 10 });
    const request = async (key: string) => (await postRequest(t, key, { episodes: [{ guid: newGuid('page'), url: 'https://media.example/a.mp3' }] })).body.job.id as string;
    const made = [await request(a.key), await request(a.key), await request(a.key)];
    const first = (await gql(JobsQuery, { first: 2 }, a.key)).data!.jobs;
    expect(first.edges.map((e) => e.node.id)).toEqual([made[2], made[1]]);
    expect(first.hasNextPage).toBe(true);
    await request(a.key);
    const second = (await gql(JobsQuery, { first: 2, after: first.endCursor }, a.key)).data!.jobs;
    expect(second.edges.map((e) => e.node.id)).toEqual([made[0]]);
    expect(second).toMatchObject({ hasNextPage: false, totalCount: 4 });
    const b = await t.account({ credits: 10 });
    const theirs = await gql(JobsQuery, { first: 2, after: first.endCursor }, b.key);
    expect(theirs.errors?.[0]).toMatchObject({ message: 'after: not a cursor from this connection', extensions: { code: 'invalid_request', field: 'after' } });
  });
});

type Update = { id: string; status: string; done: number };

function subscribeWs(key: string, query: string, variables: Record<string, unknown>) {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
  const seen: Update[] = [];
  const errors: unknown[] = [];
  let resolveEnd!: () => void;
  const ended = new Promise<void>((r) => (resolveEnd = r));
  let first!: () => void;
  const started = new Promise<void>((r) => (first = r));
  client.subscribe<Record<string, Update>>(
    { query, variables },
    {
      next: (msg) => {
        if (msg.errors) errors.push(...msg.errors);
        const value = msg.data && Object.values(msg.data)[0];
        if (value) seen.push(value);
        first();
      },
      error: (err) => {
        errors.push(err);
        first();
        resolveEnd();
      },
      complete: () => {
        first();
        resolveEnd();
      },
    },
  );
  return { client, seen, errors, ended, started };
}

describe('live job status', () => {
  it('graphql-ws: the owner sees queued, processing, done and the stream completes; another account is refused', async () => {
    const a = await t.account({ credits: 5 });
    const other = await t.account();
    const r = await postRequest(t, a.key, { episodes: [{ guid: newGuid(), url: audio.url('/spoken.mp3') }] });
    const jobId = r.body.job.id as string;

    const mine = subscribeWs(a.key, print(JobUpdatedSubscription), { id: jobId });
    const all = subscribeWs(a.key, print(MyJobsUpdatedSubscription), {});
    const theirs = subscribeWs(other.key, print(JobUpdatedSubscription), { id: jobId });
    await Promise.all([mine.started, all.started, theirs.started]);
    await theirs.ended;
    expect(theirs.seen).toEqual([]);
    expect(JSON.stringify(theirs.errors)).toContain('not_found');

    // SSE too: yoga serves subscriptions on /graphql as text/event-stream.
    const sse = await t.request('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ query: print(JobUpdatedSubscription), variables: { id: jobId } }),
    });
    expect(sse.headers.get('content-type')).toContain('text/event-stream');
    const sseText = sse.text();

    t.podtext.startWorkers();
    await mine.ended;
    expect(mine.errors).toEqual([]);
    expect(mine.seen.map((u) => u.status)).toEqual(['queued', 'processing', 'done']);
    expect(mine.seen.at(-1)).toMatchObject({ done: 1, total: 1 });
    const events = (await sseText).split('\n').filter((l) => l.startsWith('data:') && l.length > 5).map((l) => JSON.parse(l.slice(5)) as { data?: { jobUpdated: Update } });
    expect(events.filter((e) => e.data).map((e) => e.data!.jobUpdated.status)).toEqual(['queued', 'processing', 'done']);

    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(all.seen.map((u) => u.status)).toEqual(['queued', 'processing', 'done']);
    await Promise.all([mine.client.dispose(), all.client.dispose(), theirs.client.dispose()]);
  }, 60_000);
});
