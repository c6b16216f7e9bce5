import pg from 'pg';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asrDoc } from '../../src/core/jobs/asr-doc.js';
import type { TaskResult } from '../../src/core/jobs/settle-task.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { MyJobsUpdatedSubscription, JobUpdatedSubscription } from '../graphql/operations.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { startResettingProxy } from '../support/resetting-proxy.js';
import { newGuid } from './support/audio-server.js';
import { postRequest } from './support/jobs-api.js';

const result: TaskResult = {
  doc: asrDoc('finished while nobody listened'.split(' ').map((w, i) => ({ w, s: i, e: i + 0.5 })), 'en'),
  engine: 'sphinx',
  model: 'en-us',
  language: 'en',
  durationSeconds: 10,
  engineLane: 'standard',
  slotSeconds: 4,
};

/** The `data:` payloads an SSE stream carried so far, read as they arrive. */
function readSse(body: ReadableStream<Uint8Array>): { events: Record<string, any>[]; ended: Promise<void>; cancel(): Promise<void> } {
  const events: Record<string, any>[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  const ended = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const bytes = r.value;
      buffer += decoder.decode(bytes, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        for (const line of block.split('\n')) if (line.startsWith('data:') && line.length > 5) events.push(JSON.parse(line.slice(5)));
      }
    }
  })();
  ended.catch(() => undefined);
  return { events, ended, cancel: () => reader.cancel() };
}

// An API process hears of jobs settled by the workers over LISTEN/NOTIFY. When its LISTEN
// connection is lost (a database restart, a failover) it listens again, but what was
// announced meanwhile never arrives: a live job stream must read its jobs again then,
// or a job finished in the gap is never reported done and its stream never ends.
describe.skipIf(!hasPostgres())('job subscriptions across a lost LISTEN connection (PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let proxy: Awaited<ReturnType<typeof startResettingProxy>>;
  let api: TestPodtext;
  let worker: TestPodtext;

  beforeAll(async () => {
    db = await freshPostgresDatabase();
    proxy = await startResettingProxy(new URL(db.url));
    api = await startTestPodtext({ databaseUrl: proxy.url(db.url) });
    worker = await startTestPodtext({ databaseUrl: db.url });
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await proxy?.close();
    await db?.drop();
  });

  async function endListeners(): Promise<void> {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`);
    } finally {
      await admin.end();
    }
  }

  it('a job done while the API process was not listening is reported done once it listens again, and its stream ends', async () => {
    const a = await api.account({ credits: 3 });
    const guid = newGuid();
    const job = (await postRequest(api, a.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3` }] })).body.job;
    const subscribe = async (query: string, variables: Record<string, unknown>) => {
      const res = await api.request('/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return readSse(res.body!);
    };
    const one = await subscribe(print(JobUpdatedSubscription), { id: job.id });
    const all = await subscribe(print(MyJobsUpdatedSubscription), {});
    await expect.poll(() => one.events.length + all.events.length).toBe(2);

    // The API process cannot listen again until the worker process has finished the job.
    proxy.resetting = true;
    await endListeners();
    const { tasks } = worker.podtext.services.jobs;
    const task = await tasks.claim('worker-1');
    expect(task?.transcriptId).toBe(transcriptIdFor(guid));
    expect(await tasks.complete(task!, result, 'sphinx')).toBe('stored');
    proxy.resetting = false;

    await expect.poll(() => one.events.map((e) => e.data.jobUpdated.status), { timeout: 15_000 }).toEqual(['queued', 'done']);
    await one.ended;
    await expect.poll(() => all.events.map((e) => e.data.myJobsUpdated.status), { timeout: 15_000 }).toEqual(['queued', 'done']);
    await all.cancel();
  }, 60_000);
});
