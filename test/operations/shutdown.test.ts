import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { type PodtextProcess, spawnPodtext } from './support/podtext-process.js';

const spawned: PodtextProcess[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const p of spawned.splice(0)) await p.dispose();
  for (const drop of drops.splice(0)) await drop();
});

/** A serving process: on a fresh PostgreSQL database when there is one (it starts in seconds), else on PGlite. */
async function serve(env: Record<string, string>): Promise<PodtextProcess> {
  if (hasPostgres()) {
    const db = await freshPostgresDatabase();
    drops.push(db.drop);
    env = { ...env, DATABASE_URL: db.url };
  }
  const p = await spawnPodtext('serve', { ROLE: 'api', ...env });
  spawned.push(p);
  return p;
}

/** One request on a fresh connection; resolves with the status, or the connection error's code. */
function probe(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

describe('SIGTERM of a serving process', () => {
  it('readiness turns 503 before the listener closes, a slow request in flight completes, and the process exits 0', async () => {
    const p = await serve({ SHUTDOWN_DELAY_SECONDS: '1', SHUTDOWN_GRACE_SECONDS: '15' });
    expect((await probe(`${p.url}/readyz`)) as { status: number }).toMatchObject({ status: 200 });

    // A request whose body arrives slowly: half now, the rest after the signal.
    const body = JSON.stringify({ email: 'slow-reader@example.com' });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${p.url}/api/v1/register/start`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 2500);
    });
    await new Promise((r) => setTimeout(r, 300));

    p.child.kill('SIGTERM');
    const ready = await waitFor(async () => {
      const r = await probe(`${p.url}/readyz`);
      return 'status' in r && r.status === 503 ? r : undefined;
    }, 2000, 'readiness 503');
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'draining' });
    // Still answering other routes while load balancers catch up.
    expect(await probe(`${p.url}/livez`)).toMatchObject({ status: 200 });

    // Then the listener stops accepting…
    await waitFor(async () => {
      const r = await probe(`${p.url}/livez`);
      return 'error' in r && r.error === 'ECONNREFUSED' ? true : undefined;
    }, 5000, 'listener closed');
    // …while the request in flight still gets its answer.
    const res = await answered;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ ok: true });
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('stopped');
  }, 90_000);

  it('requests still running when SHUTDOWN_GRACE_SECONDS runs out are cut off, with a warning counting them, and the process exits 1', async () => {
    // A feed host that takes its time: a search by its feed URL waits on it.
    const asked: http.ServerResponse[] = [];
    const feedHost = http.createServer((_req, res) => void asked.push(res));
    await new Promise<void>((r) => feedHost.listen(0, '127.0.0.1', r));
    drops.push(async () => {
      feedHost.closeAllConnections();
      await new Promise((r) => feedHost.close(r));
    });
    const endpoint = `127.0.0.1:${(feedHost.address() as AddressInfo).port}`;
    const p = await serve({ OUTBOUND_ALLOW: endpoint, SHUTDOWN_GRACE_SECONDS: '3' });

    const search = probe(`${p.url}/?q=${encodeURIComponent(`http://${endpoint}/feed.xml`)}`);
    await waitFor(() => asked.length > 0, 10_000, 'the search to ask the feed host');
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(3500);
    // The search never got its answer: its connection was closed.
    expect(await search).toMatchObject({ error: 'ECONNRESET' });
    const warning = p.logLines().find((l) => l.cutOff !== undefined);
    expect(warning).toMatchObject({ level: 40, cutOff: 1, msg: expect.stringContaining('1 request(s) still running after SHUTDOWN_GRACE_SECONDS were cut off') });
  }, 90_000);

  it('a second signal exits at once', async () => {
    const p = await serve({ SHUTDOWN_DELAY_SECONDS: '30', SHUTDOWN_GRACE_SECONDS: '60' });
    p.child.kill('SIGTERM');
    await waitFor(async () => {
      const r = await probe(`${p.url}/readyz`);
      return 'status' in r && r.status === 503 ? true : undefined;
    }, 2000, 'readiness 503');
    const signalled = Date.now();
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(2000);
  }, 90_000);
});

describe.skipIf(!hasPostgres())('SIGTERM of a worker process mid-task', () => {
  let api: TestPodtext;
  let audio: AudioServer;
  afterAll(async () => {
    await api?.close();
    await audio?.close();
  });

  it('hands its task back at once; another process finishes it long before the lease would have run out', async () => {
    const LEASE_SECONDS = 300;
    audio = await startAudioServer();
    audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
    api = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1' }, jobs: { options: { leaseSeconds: LEASE_SECONDS }, workers: { pollMs: 200 } } });
    const databaseUrl = api.podtext.config.databaseUrl!;
    const worker = await spawnPodtext('worker', { DATABASE_URL: databaseUrl, WORKERS: '1', OUTBOUND_ALLOW: audio.endpoint, SHUTDOWN_GRACE_SECONDS: '20' });
    spawned.push(worker);
    const { db } = api.podtext.services;
    const a = await api.account({ credits: 5 });
    const guid = newGuid('sigterm');
    const task = () => db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
    const r = await postRequest(api, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }] });
    expect(r.status).toBe(200);
    await waitFor(async () => ((await task()).stage === 'recognise' ? true : undefined), 60_000, () => `recognition (${worker.output().slice(-500)})`, 10);
    expect((await task()).workerId).toContain(`:${worker.child.pid}:`);

    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await task()).toMatchObject({ status: 'queued', leaseUntil: null, workerId: null, failures: 0 });

    // Another process picks it up at once, not after the 5-minute lease.
    api.podtext.startWorkers();
    const done = await jobDone(api, a.key, r.body.job.id, 240_000);
    expect(done.status).toBe('done');
    expect(Date.now() - signalled).toBeLessThan(LEASE_SECONDS * 1000);
    expect(await task()).toMatchObject({ status: 'done', failures: 0, attempt: 2 });
  }, 360_000);
});
