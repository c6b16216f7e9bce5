import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { OTHER_ADDRESS_JOBS_PER_DAY } from '../../src/core/jobs/notify-limit.js';
import { REQUESTED_SHOW_ID } from '../../src/core/jobs/resolve-episodes.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from './support/audio-server.js';
import { getJob, ledger, postRequest } from './support/jobs-api.js';

// No workers here: these tests look at what a request charges and stores. The fast lane's
// endpoint is never called, so nothing needs to listen there.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext({ env: { FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://127.0.0.1:9/v1' } });
});
afterAll(() => t.close());

const item = (guid = newGuid(), extra: Record<string, unknown> = {}) => ({ guid, url: `https://media.example/${guid}.mp3`, ...extra });

async function nothingStored(accountId: string, credits: number) {
  const { db } = t.podtext.services;
  expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).credits).toBe(credits);
  expect(await db.job.count({ where: { accountId } })).toBe(0);
  expect(await db.unlock.count({ where: { accountId } })).toBe(0);
  expect(await db.ledgerEntry.count({ where: { accountId, kind: 'charge' } })).toBe(0);
}

describe('POST /requests input', () => {
  it('26 episodes: 400 naming the limit, nothing charged', async () => {
    const a = await t.account({ credits: 100 });
    const r = await postRequest(t, a.key, { episodes: Array.from({ length: 26 }, () => item()) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request' });
    expect(r.body.error.message).toMatch(/^episodes: at most 25 episodes per request/);
    await nothingStored(a.accountId, 100);
  });

  it('a date before the year 1 or after 9999: 400 naming the date, not a database 500, nothing charged', async () => {
    const a = await t.account({ credits: 10 });
    for (const date of ['0000-01-01', '-000001-01-01T00:00:00Z', '-004714-11-23T00:00:00Z', '-271821-04-20T00:00:00Z', '+010000-01-01T00:00:00Z']) {
      const r = await postRequest(t, a.key, { episodes: [item(undefined, { date })] });
      expect(r.status, date).toBe(400);
      expect(r.body.error).toEqual({ code: 'invalid_request', message: 'episodes.0.date: must be a date between the years 1 and 9999' });
    }
    await nothingStored(a.accountId, 10);
    const edge = await postRequest(t, a.key, { episodes: [item(undefined, { date: '0001-01-01T00:00:00Z' }), item(undefined, { date: '9999-12-31T23:59:59Z' })] });
    expect(edge.status).toBe(200);
  });

  it('a field the body does not have (dryRun, a typo of dry_run): 400 naming it, nothing charged', async () => {
    const a = await t.account({ credits: 10 });
    const cases: [unknown, string][] = [
      [{ episodes: [item()], dryRun: true }, 'dryRun'],
      [{ episodes: [item()], 'dry-run': true }, 'dry-run'],
    ];
    for (const [body, field] of cases) {
      const r = await postRequest(t, a.key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toEqual({ code: 'invalid_request', message: `${field}: not a field of this request (names are snake_case, as documented)` });
    }
    await nothingStored(a.accountId, 10);
    // An item may be an episode of the episode list as it came, with its other fields: they are not read.
    const listed = item(undefined, { audio_url: 'https://media.example/x.mp3', transcript_id: '0123456789abcdef', transcript_status: 'none', duration_seconds: 60, secs: 60 });
    const quote = await postRequest(t, a.key, { episodes: [listed], dry_run: true });
    expect(quote.status).toBe(200);
    expect(quote.body.credits_required).toBe(1);
    await nothingStored(a.accountId, 10);
  });

  it('each item needs a guid and an http(s) url; secs is a whole number ≥ 0', async () => {
    const a = await t.account({ credits: 10 });
    const cases: [unknown, string][] = [
      [{ episodes: [{ url: 'https://a.example/x.mp3' }] }, 'episodes.0.guid'],
      [{ episodes: [{ guid: 'g' }] }, 'episodes.0.url'],
      [{ episodes: [item(), { guid: 'g', url: 'ftp://a.example/x.mp3' }] }, 'episodes.1.url'],
      [{ episodes: [item(undefined, { secs: -1 })] }, 'episodes.0.secs'],
      [{ episodes: [item(undefined, { secs: 1.5 })] }, 'episodes.0.secs'],
      [{ episodes: [item(undefined, { date: 'someday' })] }, 'episodes.0.date'],
      // Days the calendar does not have, which Date would roll into March.
      [{ episodes: [item(undefined, { date: '2024-02-30' })] }, 'episodes.0.date'],
      [{ episodes: [item(undefined, { date: 'Sat, 31 Feb 2024 10:00:00 GMT' })] }, 'episodes.0.date'],
      [{ episodes: [] }, 'episodes'],
      [{ episodes: [item()], email: 'not-an-address' }, 'email'],
      [{ episodes: [item()], webhook_url: 'http://hooks.example/x' }, 'webhook_url'],
      [{ episodes: [item({} as never)] }, 'episodes.0.guid'],
      // A null must not quietly mean "not a dry run, charge me".
      [{ episodes: [item()], dry_run: null }, 'dry_run'],
      [{ episodes: [item()], fast: null }, 'fast'],
      // Caught before validation, and named the way validation names fields.
      [{ episodes: [item('g\u0000')] }, 'episodes.0.guid'],
    ];
    for (const [body, field] of cases) {
      const r = await postRequest(t, a.key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message.startsWith(`${field}:`), `${r.body.error.message} names ${field}`).toBe(true);
    }
    await nothingStored(a.accountId, 10);
  });

  it('a title is kept on one line: line breaks and tabs become spaces (it is shown in pages and the completion mail)', async () => {
    const a = await t.account({ credits: 5 });
    const r = await postRequest(t, a.key, { episodes: [item(undefined, { title: 'Hello\r\nBcc: someone@else.example\tthere' })] });
    expect(r.status).toBe(200);
    const job = await getJob(t, a.key, r.body.job.id);
    expect(job.episodes[0].title).toBe('Hello Bcc: someone@else.example there');
    // Direction overrides and separators would make a title read other than it is ("Gone exe.png").
    const spoofed = await postRequest(t, a.key, { episodes: [item(undefined, { title: 'Gone \u202Egnp.exe\u2028next\u0085line' })] });
    expect((await getJob(t, a.key, spoofed.body.job.id)).episodes[0].title).toBe('Gone gnp.exe next line');
  });

  it('email is one plain address: lists, display names, comments and a non-ASCII mailbox are refused, not mailed elsewhere', async () => {
    const a = await t.account({ credits: 5 });
    for (const email of ['a,b@example.com', 'a;b@example.com', 'Name<victim@example.com>', 'x@example.com(comment)', 'üser@example.com']) {
      const r = await postRequest(t, a.key, { episodes: [item()], email });
      expect(r.status, email).toBe(400);
      expect(r.body.error.message, email).toBe('email: not a valid email address');
    }
    // As registration reads it: trimmed, lower-cased, without a root dot.
    const r = await postRequest(t, a.key, { episodes: [item()], email: ' Kay+Jobs@Example.COM. ' });
    expect(r.body.notify).toBe('kay+jobs@example.com');
  });

  it('mail to addresses other than the account\'s own is bounded a day, even for jobs that cost nothing; its own address is not', async () => {
    const a = await t.account({ credits: 5 });
    const episode = item();
    expect((await postRequest(t, a.key, { episodes: [episode] })).body.credits_charged).toBe(1);
    // Joining an episode the key already waits for is free: each such job would mail a stranger.
    for (let i = 0; i < OTHER_ADDRESS_JOBS_PER_DAY; i++) {
      const r = await postRequest(t, a.key, { episodes: [episode], email: `stranger-${i}@elsewhere.example` });
      expect(r.status).toBe(200);
      expect(r.body.credits_charged).toBe(0);
    }
    const res = await t.api('POST', '/requests', { key: a.key, body: { episodes: [episode], email: 'one-more@elsewhere.example' } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/^email: at most 50 jobs a day/) });
    expect((await postRequest(t, a.key, { episodes: [episode], email: a.email.toUpperCase() })).status).toBe(200);
    expect((await postRequest(t, a.key, { episodes: [episode] })).status).toBe(200);
    // A dry run sends no mail and is not refused.
    expect((await postRequest(t, a.key, { episodes: [episode], email: 'one-more@elsewhere.example', dry_run: true })).status).toBe(200);
    // Episodes already transcribed make no job and mail no one: not refused.
    const held = await addEpisode(t, { doc: sampleDoc() });
    const library = await postRequest(t, a.key, { episodes: [{ guid: held.guid, url: 'https://x.example/a.mp3' }], email: 'one-more@elsewhere.example' });
    expect(library.status).toBe(200);
    expect(library.body.already_transcribed).toHaveLength(1);
  });

  it('requests sent at once cannot pass the bound on mail to other addresses together', async () => {
    const a = await t.account({ credits: 5 });
    const episode = item();
    expect((await postRequest(t, a.key, { episodes: [episode] })).status).toBe(200);
    for (let i = 0; i < OTHER_ADDRESS_JOBS_PER_DAY - 1; i++) {
      expect((await postRequest(t, a.key, { episodes: [episode], email: `stranger-${i}@elsewhere.example` })).status).toBe(200);
    }
    const at = await Promise.all(Array.from({ length: 4 }, (_, i) => postRequest(t, a.key, { episodes: [episode], email: `racer-${i}@elsewhere.example` })));
    expect(at.map((r) => r.status).sort()).toEqual([200, 429, 429, 429]);
    expect(await t.podtext.services.db.job.count({ where: { accountId: a.accountId, NOT: { notifyEmail: a.email } } })).toBe(OTHER_ADDRESS_JOBS_PER_DAY);
  });

  it('insufficient credits: 402 with required and available, nothing charged, unlocked or queued', async () => {
    const held = await addEpisode(t, { doc: sampleDoc() });
    const a = await t.account({ credits: 2 });
    const guid = newGuid();
    const r = await postRequest(t, a.key, { episodes: [{ guid: held.guid, url: 'https://x.example/a.mp3' }, item(guid, { secs: 5400 })] });
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe('insufficient_credits');
    expect(r.body.error.message).toContain('needs 3 credits; the balance is 2');
    await nothingStored(a.accountId, 2);
    expect(await t.podtext.services.db.episode.count({ where: { transcriptId: transcriptIdFor(guid) } })).toBe(0);
    expect(await t.podtext.services.db.transcriptionTask.count({ where: { transcriptId: transcriptIdFor(guid) } })).toBe(0);
  });
});

describe('pricing and the request result', () => {
  it('library episodes are unlocked for 1, the rest priced per hour with the unlock included, one job', async () => {
    const held = await addEpisode(t, { doc: sampleDoc(), title: 'Held one' });
    const known = await addEpisode(t, { durationSeconds: 3 * 3600 + 1700 });
    const a = await t.account({ credits: 20 });
    const fresh = newGuid();
    // A hosted test inbox: the webhook URL is checked where it resolves, and this machine resolves no public names.
    const inbox = (await (await t.api('POST', '/webhooks/inbox', { key: a.key })).json()) as { url: string };
    const r = await postRequest(t, a.key, {
      episodes: [{ guid: held.guid, url: 'https://x.example/h.mp3' }, { guid: known.guid, url: 'https://elsewhere.example/k.mp3' }, item(fresh, { secs: 5400, title: 'Brand new' }), item(fresh)],
      webhook_url: inbox.url,
      email: 'team@example.com',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ queued: 2, credits_charged: 1 + 3 + 2, credits_remaining: 14, credits_required: 6, notify: 'team@example.com', dry_run: false });
    expect(r.body.already_transcribed).toEqual([{ transcript_id: held.transcriptId, title: 'Held one', charged: 1, url: `http://podtext.test/t/${held.transcriptId}`, transcript_url: `http://podtext.test/api/v1/transcripts/${held.transcriptId}` }]);
    expect(r.body.episodes.map((e: { status: string; charged: number }) => [e.status, e.charged])).toEqual([['ready', 1], ['queued', 3], ['queued', 2]]);
    expect(r.body.job).toMatchObject({ total: 2, done: 0, status: 'queued', webhook_url: inbox.url });
    expect(r.body.job.episodes.map((e: { charged: number }) => e.charged)).toEqual([3, 2]);
    expect(r.body.delivery).toMatch(/2 episodes are queued/);
    expect(r.body.delivery).toContain(inbox.url);
    const jobId = r.body.job.id as string;
    const refs = (await ledger(t, a.accountId)).filter((e) => e.kind === 'charge').map((e) => [e.reference, e.amount]);
    expect(refs).toEqual([
      [`unlock:${a.accountId}:${held.transcriptId}`, -1],
      [`job:${jobId}:${known.transcriptId}`, -3],
      [`job:${jobId}:${transcriptIdFor(fresh)}`, -2],
    ]);
    const { db } = t.podtext.services;
    // The index's own audio URL wins for an episode it knows; an unknown one joins the shared show.
    const task = await db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: known.transcriptId } });
    expect(task.audioUrl).toBe(`https://media.example/${known.guid}.mp3`);
    const created = await db.episode.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(fresh) } });
    expect(created).toMatchObject({ showId: REQUESTED_SHOW_ID, title: 'Brand new', durationSeconds: 5400, transcriptStatus: 'processing', audioUrl: `https://media.example/${fresh}.mp3` });
  });

  it('the fast lane costs 2 per hour, the premium as its own ledger entry, and promises at least 300 s', async () => {
    const a = await t.account({ credits: 10 });
    const guid = newGuid();
    const r = await postRequest(t, a.key, { episodes: [item(guid, { secs: 7000 })], fast: true });
    expect(r.body).toMatchObject({ credits_charged: 4, fast: true });
    expect(r.body.job.fast).toBe(true);
    expect(r.body.job.promise_seconds).toBeGreaterThanOrEqual(300);
    expect(r.body.promise_seconds).toBe(r.body.job.promise_seconds);
    const id = transcriptIdFor(guid);
    expect((await ledger(t, a.accountId, 'job:')).map((e) => [e.reference, e.amount])).toEqual([
      [`job:${r.body.job.id}:${id}`, -2],
      [`job:${r.body.job.id}:${id}:premium`, -2],
    ]);
  });

  it('ETA and promise: present and consistent on the dry run, the created job and its polling', async () => {
    const a = await t.account({ credits: 20 });
    const episodes = [item(newGuid(), { secs: 5400 })];
    const quote = (await postRequest(t, a.key, { episodes, fast: true, dry_run: true })).body;
    const made = (await postRequest(t, a.key, { episodes, fast: true })).body;
    const polled = await getJob(t, a.key, made.job.id);
    for (const x of [quote, made, made.job, polled]) {
      expect(x.estimated_seconds).toBeGreaterThan(0);
      // The promise is at least 300 s and never shorter than the estimate it is made from.
      expect(x.promise_seconds).toBeGreaterThanOrEqual(Math.max(300, x.estimated_seconds));
    }
    expect(made.promise_seconds).toBe(made.job.promise_seconds);
    expect(polled.promise_seconds).toBe(made.job.promise_seconds);
    const readyAt = Date.parse(made.job.estimated_ready_at);
    expect(Math.abs(readyAt - (Date.now() + made.job.estimated_seconds * 1000))).toBeLessThan(10_000);
    expect(Math.abs(Date.parse(polled.estimated_ready_at) - readyAt)).toBeLessThan(10_000);
  });

  it('the public sample costs nothing in a request, quoted or not, even with no credits left', async () => {
    const a = await t.account({ credits: 0 });
    const sample = { guid: sampleEpisode.guid, url: 'https://x.example/sample.mp3' };
    const quote = await postRequest(t, a.key, { episodes: [sample], dry_run: true });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ credits_required: 0, sufficient: true, episodes: [{ transcript_id: sampleEpisode.transcriptId, status: 'ready', charged: 0 }] });
    const made = await postRequest(t, a.key, { episodes: [sample] });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ credits_charged: 0, credits_remaining: 0, already_transcribed: [{ transcript_id: sampleEpisode.transcriptId, charged: 0 }] });
    expect(await ledger(t, a.accountId, 'unlock:')).toHaveLength(0);
  });

  it('a dry run quotes and stores nothing', async () => {
    const held = await addEpisode(t, { doc: sampleDoc() });
    const a = await t.account({ credits: 3 });
    const guid = newGuid();
    const r = await postRequest(t, a.key, { episodes: [{ guid: held.guid, url: 'https://x.example/h.mp3' }, item(guid, { secs: 9000 })], dry_run: true, fast: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ dry_run: true, request_id: null, job: null, credits_required: 1 + 6, credits_charged: 0, credits_remaining: 3, sufficient: false, queued: 1, fast_lane_available: true });
    expect(r.body.episodes.map((e: { charged: number }) => e.charged)).toEqual([1, 6]);
    expect(r.body.promise_seconds).toBeGreaterThanOrEqual(300);
    expect(r.body.estimated_seconds).toBeGreaterThan(0);
    expect(Date.parse(r.body.estimated_ready_at)).toBeGreaterThan(Date.now());
    expect(r.body.delivery).toMatch(/^Quote only/);
    await nothingStored(a.accountId, 3);
    expect(await t.podtext.services.db.episode.count({ where: { transcriptId: transcriptIdFor(guid) } })).toBe(0);
  });

  it('joining an episode this key already waits for costs nothing more', async () => {
    const a = await t.account({ credits: 5 });
    const guid = newGuid();
    const first = await postRequest(t, a.key, { episodes: [item(guid)] });
    const second = await postRequest(t, a.key, { episodes: [item(guid)] });
    expect([first.body.credits_charged, second.body.credits_charged]).toEqual([1, 0]);
    // Waiting is not the same as never asked: the 404 says it is under way, not "request one".
    const waiting = await t.api('GET', `/transcripts/${transcriptIdFor(guid)}`, { key: a.key });
    expect(waiting.status).toBe(404);
    expect(((await waiting.json()) as { error: { message: string } }).error.message).toMatch(/being transcribed now/);
    expect(await t.podtext.services.db.transcriptionTask.count({ where: { transcriptId: transcriptIdFor(guid) } })).toBe(1);
  });
});

describe('the same episode asked for at once', () => {
  it('eight simultaneous requests by one key for one new episode charge it once', async () => {
    const a = await t.account({ credits: 27 });
    const guid = newGuid();
    const answers = await Promise.all(Array.from({ length: 8 }, () => postRequest(t, a.key, { episodes: [item(guid, { secs: 34 })] })));
    for (const r of answers) expect(r.status).toBe(200);
    expect(answers.map((r) => r.body.credits_charged).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect((await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(26);
    expect(await t.podtext.services.db.transcriptionTask.count({ where: { transcriptId: transcriptIdFor(guid) } })).toBe(1);
  });
});

describe('GET /jobs', () => {
  it('pages newest first, caps per at 50, and hides other accounts', async () => {
    const a = await t.account({ credits: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await postRequest(t, a.key, { episodes: [item()] })).body.job.id);
    const page1 = (await (await t.api('GET', '/jobs?per=2', { key: a.key })).json()) as { jobs: { id: string }[]; total: number; has_more: boolean; page: number; per: number };
    expect(page1).toMatchObject({ total: 3, has_more: true, page: 1, per: 2 });
    expect(page1.jobs.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const page2 = (await (await t.api('GET', '/jobs?per=2&page=2', { key: a.key })).json()) as { jobs: { id: string }[]; has_more: boolean };
    expect(page2.jobs.map((j) => j.id)).toEqual([ids[0]]);
    expect(page2.has_more).toBe(false);
    const tooMany = await t.api('GET', '/jobs?per=51', { key: a.key });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: { message: string } }).error.message).toMatch(/^per:/);
    // Counts in a query follow one rule on every route: digits only; empty means the default.
    for (const q of ['page=1e3', 'page=0x10', 'page=%201', 'page=-1', 'page=2.5', 'per=1e1', 'per=0']) {
      const r = await t.api('GET', `/jobs?${q}`, { key: a.key });
      expect(r.status, q).toBe(400);
      expect(((await r.json()) as { error: { message: string } }).error.message, q).toMatch(new RegExp(`^${q.split('=')[0]}: must be a whole number from 1`));
    }
    for (const q of ['page=', 'per=']) expect((await t.api('GET', `/jobs?${q}`, { key: a.key })).status, q).toBe(200);
    expect((await t.api('GET', '/shows/999999999999/episodes?max=1e2', { key: a.key })).status).toBe(400);

    const b = await t.account();
    expect((await t.api('GET', `/jobs/${ids[0]}`, { key: b.key })).status).toBe(404);
    expect((await t.api('GET', '/jobs/not-a-uuid', { key: a.key })).status).toBe(404);
    expect((await t.api('GET', '/jobs', { key: b.key }).then((r) => r.json()) as { total: number }).total).toBe(0);
    expect((await t.api('GET', `/jobs/${ids[0]}`, { key: a.key })).status).toBe(200);
  });
});

describe('the queue ahead of each open job, as a list shows it', () => {
  it('counts the episodes of the jobs queued before, job by job, the same in the list as one by one', async () => {
    const a = await t.account({ credits: 20 });
    const b = await t.account({ credits: 20 });
    const sizes = [2, 1, 3];
    const ids: string[] = [];
    for (const n of sizes) ids.push((await postRequest(t, a.key, { episodes: Array.from({ length: n }, () => item(undefined, { secs: 600 })) })).body.job.id);
    // Another account's job in between is ahead of the next one too.
    await postRequest(t, b.key, { episodes: [item(undefined, { secs: 600 })] });
    ids.push((await postRequest(t, a.key, { episodes: [item(undefined, { secs: 600 })] })).body.job.id);
    type Listed = { id: string; queue_ahead_episodes: number; estimated_seconds: number };
    const list = ((await (await t.api('GET', '/jobs?per=50', { key: a.key })).json()) as { jobs: Listed[] }).jobs;
    const listed = ids.map((id) => list.find((j) => j.id === id)!);
    const one = await Promise.all(ids.map((id) => getJob(t, a.key, id) as Promise<Listed>));
    expect(listed.map((j) => [j.queue_ahead_episodes, j.estimated_seconds])).toEqual(one.map((j) => [j.queue_ahead_episodes, j.estimated_seconds]));
    const first = listed[0]!.queue_ahead_episodes;
    expect(listed.map((j) => j.queue_ahead_episodes - first)).toEqual([0, 2, 3, 7]);
    for (let i = 1; i < listed.length; i++) expect(listed[i]!.estimated_seconds).toBeGreaterThanOrEqual(listed[i - 1]!.estimated_seconds);
  });
});
