/**
 * Transcription jobs, end to end on the embedded default (PGlite, sphinx):
 * pipeline overhead against engine time, the speed-up of one long episode
 * on 2 worker slots against 1, ETA error on a queue of short episodes, and
 * the latency of a status change to a graphql-ws subscriber.
 *
 *   npx tsx bench/jobs.ts [long] [eta] [latency]     (all: about 10 minutes on 2 idle cores)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { type BootOverrides, type Podtext, boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { asrDoc } from '../src/core/jobs/asr-doc.js';
import * as ledger from '../src/core/ledger.js';
import { inTransaction } from '../src/core/transaction.js';
import { probeDuration } from '../src/infra/audio/probe-duration.js';
import { LONG_PASSAGE, SHORT_PASSAGE } from '../test/audio/passages.js';
import { speak } from '../test/audio/speak.js';
import { JobUpdatedSubscription } from '../test/graphql/operations.js';
import { type AudioServer, newGuid, startAudioServer } from '../test/jobs/support/audio-server.js';

type Timings = { engineSeconds: number; wallSeconds: number };

async function startPodtext(env: Record<string, string>, overrides: BootOverrides = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-bench-jobs-'));
  const podtext = await boot(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', SITE_URL: 'http://bench.test', ...env }), overrides);
  return {
    podtext,
    async close() {
      await podtext.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function account(podtext: Podtext, credits = 1000): Promise<{ id: string; key: string }> {
  const { db, keys, clock } = podtext.services;
  const id = crypto.randomUUID();
  const key = await inTransaction(db, async (tx) => {
    await tx.account.create({ data: { id, email: `${id}@bench.test`, plan: 'business', cycleStartedAt: clock.now() } });
    const k = await keys.issue(tx, id);
    await ledger.grant(tx, id, credits, `bench:${id}`, 'bench');
    return k;
  });
  return { id, key };
}

/** Resolves with the wall-clock time each job is announced done. */
function doneTimes(podtext: Podtext): { wait(jobId: string): Promise<number>; stop(): void } {
  const seen = new Map<string, number>();
  const waiters = new Map<string, (t: number) => void>();
  const stop = podtext.services.bus.subscribe((e) => {
    if (e.type !== 'job.updated' || e.status !== 'done') return;
    const now = Date.now();
    seen.set(e.jobId, now);
    waiters.get(e.jobId)?.(now);
  });
  return {
    wait: (jobId) => (seen.has(jobId) ? Promise.resolve(seen.get(jobId)!) : new Promise((resolve) => waiters.set(jobId, resolve))),
    stop,
  };
}

async function request(podtext: Podtext, key: string, url: string, secs?: number): Promise<{ jobId: string; estimatedSeconds: number; at: number }> {
  const at = Date.now();
  const res = await podtext.http.app.request('/api/v1/requests', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ episodes: [{ guid: newGuid('bench'), url, secs }] }),
  });
  const body = (await res.json()) as { job: { id: string; estimated_seconds: number } };
  if (res.status !== 200) throw new Error(`POST /requests: ${res.status} ${JSON.stringify(body)}`);
  return { jobId: body.job.id, estimatedSeconds: body.job.estimated_seconds, at };
}

/** One long episode on `workers` slots: wall time from request to done, and where the task's time went. */
async function longEpisode(audio: AudioServer, workers: number): Promise<{ wall: number; timings: Timings }> {
  let reported!: (t: Timings) => void;
  const timings = new Promise<Timings>((resolve) => (reported = resolve));
  const app = await startPodtext({ WORKERS: String(workers), OUTBOUND_ALLOW: audio.endpoint }, { jobs: { onTaskTimings: (_t, x) => reported(x) } });
  try {
    const done = doneTimes(app.podtext);
    app.podtext.startWorkers();
    const { key } = await account(app.podtext);
    const r = await request(app.podtext, key, audio.url('/long.mp3'));
    const end = await done.wait(r.jobId);
    done.stop();
    const result = { wall: (end - r.at) / 1000, timings: await timings };
    process.stderr.write(`long episode on ${workers} slot(s): ${JSON.stringify(result)}\n`);
    return result;
  } finally {
    await app.close();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** ETA given at request time against the real time to done, for `count` short jobs queued at once. */
async function etaAccuracy(audio: AudioServer, count: number, secs: number): Promise<{ errors: number[]; last: { estimated: number; actual: number } }> {
  const app = await startPodtext({ WORKERS: '2', OUTBOUND_ALLOW: audio.endpoint });
  try {
    const done = doneTimes(app.podtext);
    app.podtext.startWorkers();
    const { key } = await account(app.podtext);
    // Warm-up: the lane's throughput is measured (and persisted) from these, run as the queue will run, slots busy together.
    const warm = [];
    for (let i = 0; i < 6; i++) warm.push(await request(app.podtext, key, audio.url('/short.mp3'), secs));
    await Promise.all(warm.map((w) => done.wait(w.jobId)));
    const jobs = [];
    // `secs` as an episode list gives it: the ETA counts audio not yet decoded by it.
    for (let i = 0; i < count; i++) jobs.push(await request(app.podtext, key, audio.url('/short.mp3'), secs));
    const ends = await Promise.all(jobs.map((j) => done.wait(j.jobId)));
    done.stop();
    const errors = jobs.map((j, i) => {
      const actual = (ends[i]! - j.at) / 1000;
      return (j.estimatedSeconds - actual) / actual;
    });
    const last = jobs.at(-1)!;
    return { errors, last: { estimated: last.estimatedSeconds, actual: (ends.at(-1)! - last.at) / 1000 } };
  } finally {
    await app.close();
  }
}

/** Status changes (queued → processing → done) of `count` jobs, each watched over graphql-ws: ms from publish to client. */
async function subscriptionLatency(count: number, gapMs: number): Promise<number[]> {
  const app = await startPodtext({ WORKERS: '0' });
  const url = `${(await app.podtext.listen()).replace('http', 'ws')}/graphql`;
  const { key } = await account(app.podtext);
  const published = new Map<string, number>();
  const stopBus = app.podtext.services.bus.subscribe((e) => {
    if (e.type === 'job.updated') published.set(`${e.jobId}:${e.status}`, performance.now());
  });
  const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
  const latencies: number[] = [];
  try {
    const finished: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      const { jobId } = await request(app.podtext, key, `https://media.example/${i}.mp3`);
      let first!: () => void;
      const subscribed = new Promise<void>((r) => (first = r));
      finished.push(
        new Promise<void>((resolve, reject) => {
          let initial = true;
          client.subscribe<{ jobUpdated: { status: string } }>(
            { query: print(JobUpdatedSubscription), variables: { id: jobId } },
            {
              next: (msg) => {
                const at = performance.now();
                if (initial) {
                  initial = false;
                  first();
                  return;
                }
                const sent = published.get(`${jobId}:${msg.data!.jobUpdated.status}`);
                if (sent !== undefined) latencies.push(at - sent);
              },
              error: reject,
              complete: resolve,
            },
          );
        }),
      );
      await subscribed;
    }
    const { tasks } = app.podtext.services.jobs;
    const pause = () => new Promise((r) => setTimeout(r, gapMs));
    for (;;) {
      const task = await tasks.claim('bench');
      if (!task) break;
      await pause();
      await tasks.complete(task, { doc: asrDoc([{ w: 'hello', s: 0, e: 0.5 }], 'en'), engine: 'sphinx', model: 'en-us', language: 'en', durationSeconds: 1, engineLane: 'standard', slotSeconds: 1 }, 'sphinx');
      await pause();
    }
    await Promise.all(finished);
    return latencies;
  } finally {
    stopBus();
    await client.dispose();
    await app.close();
  }
}

/**
 * @param parts which measures to run (`long`, `eta`, `latency`). Default: all.
 */
export async function runJobsBench(parts: string[] = ['long', 'eta', 'latency']): Promise<string[]> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podtext-bench-audio-'));
  const audio = await startAudioServer();
  try {
    await speak(Array.from({ length: 10 }, () => LONG_PASSAGE).join(' '), path.join(scratch, 'long.mp3'), { format: 'mp3' });
    await speak(SHORT_PASSAGE, path.join(scratch, 'short.mp3'), { format: 'mp3' });
    audio.file('/long.mp3', await readFile(path.join(scratch, 'long.mp3')));
    audio.file('/short.mp3', await readFile(path.join(scratch, 'short.mp3')));

    const shortSecs = Math.round(await probeDuration(path.join(scratch, 'short.mp3')));
    const rows: string[] = [];
    const load = () => os.loadavg()[0]!.toFixed(1);
    if (parts.includes('long')) {
      const one = await longEpisode(audio, 1);
      const loadOne = load();
      const two = await longEpisode(audio, 2);
      const overhead = one.wall - one.timings.engineSeconds;
      rows.push(
        `| ~10-minute episode, 1 slot: request → done | ${fmt(one.wall)} s (engine ${fmt(one.timings.engineSeconds)} s; load ${loadOne}) | |`,
        `| pipeline overhead (all but the engine) / engine time | ${fmt(overhead, 2)} s / ${fmt(one.timings.engineSeconds)} s = ${fmt((overhead / one.timings.engineSeconds) * 100)}% | ≤ 10% |`,
        `| same episode, 2 slots: request → done | ${fmt(two.wall)} s (load ${load()}) | |`,
        `| speed-up 2 slots vs 1 | ${fmt(one.wall / two.wall, 2)}× | ≥ 1.7× |`,
      );
    }
    if (parts.includes('eta')) {
      const eta = await etaAccuracy(audio, 20, shortSecs);
      const absErrors = eta.errors.map(Math.abs);
      rows.push(
        `| ETA error, 20 short (${shortSecs} s) jobs queued at once: median / max | ${fmt(percentile(absErrors, 50) * 100)}% / ${fmt(Math.max(...absErrors) * 100)}% | ±25% |`,
        `| ETA of the last of the 20 (the whole queue) | ${eta.last.estimated} s estimated, ${fmt(eta.last.actual)} s actual (${fmt(((eta.last.estimated - eta.last.actual) / eta.last.actual) * 100)}%) | ±25% |`,
      );
    }
    if (parts.includes('latency')) {
      // 60 watched jobs moving queued → processing → done, a change every 50 ms, then back to back.
      for (const gap of [50, 0]) {
        const latencies = await subscriptionLatency(60, gap);
        const pace = gap ? `a change every ${gap} ms` : 'changes back to back';
        rows.push(`| status change → graphql-ws subscriber, ${pace} (${latencies.length}): p50 / p99 | ${fmt(percentile(latencies, 50))} ms / ${fmt(percentile(latencies, 99))} ms | p99 ≤ 100 ms |`);
      }
    }
    return [
      '## Transcription jobs (PGlite, sphinx, this machine)',
      '| measure | value | goal |',
      '|---|---|---|',
      ...rows,
      '',
      `cores: ${os.availableParallelism()}; load average (1 min) at the end: ${load()}`,
    ];
  } finally {
    await audio.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.slice(2);
  console.log((await runJobsBench(only.length ? only : undefined)).join('\n'));
}
