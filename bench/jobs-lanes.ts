/**
 * Lanes and chunk tasks, measured:
 *  1. one generated episode of BENCH_EPISODE_MINUTES (default 60) on 1, 2 and 4
 *     ROLE=worker processes sharing PostgreSQL (BENCH_DATABASE_URL): request →
 *     done, speed-up against 1 process (goal ≥ 1.7× for 2 on 2 cores);
 *  2. the fast lane, an episode of BENCH_FAST_HOURS (default 10) against the
 *     stand-in OpenAI-compatible server taking BENCH_FAST_CHUNK_MS (default 500)
 *     per chunk, 16 at a time: done in minutes, inside its promise;
 *  3. ETA error over a 20-episode queue of mixed lengths (PGlite, sphinx):
 *     median and p90 of |actual − estimated| / actual (goal p90 ≤ 25%);
 *  4. pipeline overhead (all but the engine) against engine time, one
 *     episode on one slot (goal ≤ 10%).
 *
 *   npx tsx bench/jobs-lanes.ts [processes] [fast] [eta] [overhead]
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { type BootOverrides, type Podtext, boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import * as ledger from '../src/core/ledger.js';
import { inTransaction } from '../src/core/transaction.js';
import { LONG_PASSAGE, SHORT_PASSAGE } from '../test/audio/passages.js';
import { speak } from '../test/audio/speak.js';
import { type AudioServer, newGuid, startAudioServer } from '../test/jobs/support/audio-server.js';
import { startSpeechApi } from '../test/jobs/support/speech-api.js';
import { spawnWorker } from '../test/jobs/support/worker-child.js';

const run = promisify(execFile);
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () => os.loadavg()[0]!.toFixed(1);

async function startPodtext(env: Record<string, string>, overrides: BootOverrides = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-bench-lanes-'));
  const podtext = await boot(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', SITE_URL: 'http://bench.test', APPLE_CHARTS_URL: 'off', SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789', ...env }), { inMemory: !env.DATABASE_URL, ...overrides });
  return {
    podtext,
    async close() {
      await podtext.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function account(podtext: Podtext, credits = 10_000): Promise<string> {
  const { db, keys, clock } = podtext.services;
  const id = randomUUID();
  return inTransaction(db, async (tx) => {
    await tx.account.create({ data: { id, email: `${id}@bench.test`, plan: 'business', cycleStartedAt: clock.now() } });
    const k = await keys.issue(tx, id);
    await ledger.grant(tx, id, credits, `bench:${id}`, 'bench');
    return k;
  });
}

type Answer = { job: { id: string; estimated_seconds: number; promise_seconds: number | null } };

async function request(podtext: Podtext, key: string, body: unknown): Promise<Answer & { at: number }> {
  const at = Date.now();
  const res = await podtext.http.app.request('/api/v1/requests', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as Answer;
  if (res.status !== 200) throw new Error(`POST /requests: ${res.status} ${JSON.stringify(answer)}`);
  return { ...answer, at };
}

async function waitDone(podtext: Podtext, jobId: string): Promise<number> {
  for (;;) {
    const job = await podtext.services.db.job.findUniqueOrThrow({ where: { id: jobId } });
    if (job.status === 'done') return job.finishedAt!.getTime();
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * An MP3 of `seconds` made by looping a spoken clip (pauses between
 * sentences: silences to split at). The clip is encoded once and its frames
 * copied: encoding ten hours took longer than the figure it feeds.
 */
async function loopedMp3(clip: string, seconds: number, out: string): Promise<void> {
  const mono = `${clip}.16k.mp3`;
  await run('ffmpeg', ['-v', 'error', '-y', '-i', clip, '-ac', '1', '-ar', '16000', '-b:a', '24k', mono], { maxBuffer: 1 << 20 });
  await run('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '-1', '-i', mono, '-t', String(seconds), '-c', 'copy', out], { maxBuffer: 1 << 20 });
}

async function scratchPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `podtext_bench_${randomUUID().slice(0, 8)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** (1) The same episode on 1, 2, 4 worker processes, each with one slot, sharing one PostgreSQL. */
async function processes(audio: AudioServer, minutes: number, databaseUrl: string): Promise<string[]> {
  const db = await scratchPostgres(databaseUrl);
  const app = await startPodtext({ DATABASE_URL: db.url, WORKERS: '0', OUTBOUND_ALLOW: audio.endpoint });
  const rows: string[] = [];
  try {
    const key = await account(app.podtext);
    const walls: number[] = [];
    for (const n of [1, 2, 4]) {
      const children = await Promise.all(Array.from({ length: n }, () => spawnWorker({ databaseUrl: db.url, outboundAllow: audio.endpoint })));
      try {
        while ((await app.podtext.services.db.transcriptionWorker.count()) < n) await new Promise((r) => setTimeout(r, 200));
        const r = await request(app.podtext, key, { episodes: [{ guid: newGuid('procs'), url: audio.url('/episode.mp3'), secs: minutes * 60 }] });
        const wall = ((await waitDone(app.podtext, r.job.id)) - r.at) / 1000;
        walls.push(wall);
        process.stderr.write(`${minutes}-minute episode on ${n} process(es): ${fmt(wall)} s\n`);
        rows.push(`| ${minutes}-minute episode, ${n} worker process${n > 1 ? 'es' : ''} (1 slot each): request → done | ${fmt(wall)} s${n > 1 ? ` (${fmt(walls[0]! / wall, 2)}× vs 1)` : ''}; load ${load()} | ${n === 2 ? '≥ 1.7× on 2 cores' : ''} |`);
      } finally {
        for (const c of children) await c.dispose();
        await app.podtext.services.db.$executeRaw`DELETE FROM transcription_workers`;
      }
    }
  } finally {
    await app.close();
    await db.drop();
  }
  return rows;
}

/** (2) A long fast-lane episode against the stand-in GPU server. */
async function fastLane(audio: AudioServer, hours: number, chunkMs: number): Promise<string[]> {
  const speech = await startSpeechApi(SHORT_PASSAGE);
  speech.delayMs = chunkMs;
  speech.parallelism = 16;
  const app = await startPodtext(
    { WORKERS: '1', OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`, FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: speech.url, FAST_ASR_CONCURRENCY: '16' },
    { jobs: { options: { maxEpisodeSeconds: 12 * 3600 }, workers: { maxDownloadBytes: 4 * 1024 ** 3 } } },
  );
  try {
    app.podtext.startWorkers();
    const key = await account(app.podtext);
    const r = await request(app.podtext, key, { episodes: [{ guid: newGuid('fast'), url: audio.url('/fast.mp3'), secs: hours * 3600 }], fast: true });
    const wall = ((await waitDone(app.podtext, r.job.id)) - r.at) / 1000;
    const refunded = await app.podtext.services.db.ledgerEntry.count({ where: { reference: { startsWith: `refund:job:${r.job.id}` } } });
    return [
      `| fast lane, ${hours}-hour episode, stand-in server ${chunkMs} ms per chunk × 16 at once (${speech.calls()} chunks, peak ${speech.peakInFlight()} in flight) | ${fmt(wall / 60, 1)} min; promise ${fmt(r.job.promise_seconds! / 60, 0)} min; ${refunded ? 'late: premium refunded' : 'inside the promise'}; load ${load()} | minutes, inside the promise |`,
    ];
  } finally {
    await app.close();
    await speech.close();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** (3) ETA error over a 20-episode queue of mixed lengths, after a warm-up that measures the lane. */
async function etaError(audio: AudioServer, lengths: number[], count: number): Promise<string[]> {
  const app = await startPodtext({ WORKERS: '2', OUTBOUND_ALLOW: audio.endpoint });
  try {
    app.podtext.startWorkers();
    const key = await account(app.podtext);
    const warm = [];
    for (let i = 0; i < 4; i++) warm.push(await request(app.podtext, key, { episodes: [{ guid: newGuid('warm'), url: audio.url(`/len-${lengths[i % lengths.length]}.mp3`), secs: lengths[i % lengths.length] }] }));
    for (const w of warm) await waitDone(app.podtext, w.job.id);
    const learnt = async () => (await app.podtext.services.db.laneThroughput.findMany()).map((r) => `${r.lane}: ${fmt(r.audioSecondsPerSecond, 2)} audio s per slot-s + ${fmt(r.fixedSeconds, 1)} s per task (${r.samples} samples)`).join('; ');
    process.stderr.write(`eta: after the warm-up, ${await learnt()}\n`);
    const jobs = [];
    for (let i = 0; i < count; i++) {
      const secs = lengths[(i * 7) % lengths.length]!;
      jobs.push(await request(app.podtext, key, { episodes: [{ guid: newGuid('eta'), url: audio.url(`/len-${secs}.mp3`), secs }] }));
    }
    const errors = [];
    for (const j of jobs) {
      const actual = ((await waitDone(app.podtext, j.job.id)) - j.at) / 1000;
      errors.push(Math.abs(actual - j.job.estimated_seconds) / actual);
      process.stderr.write(`eta: estimated ${j.job.estimated_seconds} s, actual ${fmt(actual)} s\n`);
    }
    process.stderr.write(`eta: at the end, ${await learnt()}\n`);
    // Failed attempts (engine timeouts among them) make actual times no estimate could foresee.
    const [f] = await app.podtext.services.db.$queryRaw<{ n: bigint }[]>`SELECT coalesce(sum(failures), 0)::bigint AS n FROM transcription_tasks`;
    process.stderr.write(`eta: failed attempts ${Number(f?.n ?? 0)}\n`);
    return [`| ETA error, ${count} episodes of ${[...new Set(lengths)].join('/')} s queued at once (2 slots): median / p90 of \\|actual − estimated\\| / actual | ${fmt(percentile(errors, 50) * 100)}% / ${fmt(percentile(errors, 90) * 100)}%; load ${load()} | p90 ≤ 25% |`];
  } finally {
    await app.close();
  }
}

/** (4) Where one episode's time goes on one slot: the engine, or everything else (download, decode, split, queueing, stitching, storing). */
async function overhead(audio: AudioServer, minutes: number): Promise<string[]> {
  let engine = 0;
  const app = await startPodtext({ WORKERS: '1', OUTBOUND_ALLOW: audio.endpoint }, { jobs: { onChunkTimings: (_c, t) => (engine += t.engineSeconds), onTaskTimings: (_t, t) => (engine += t.engineSeconds) } });
  try {
    app.podtext.startWorkers();
    const key = await account(app.podtext);
    const r = await request(app.podtext, key, { episodes: [{ guid: newGuid('overhead'), url: audio.url('/overhead.mp3'), secs: minutes * 60 }] });
    const wall = ((await waitDone(app.podtext, r.job.id)) - r.at) / 1000;
    const rest = wall - engine;
    return [`| pipeline overhead, ${minutes}-minute episode on 1 slot (PGlite): all but the engine / engine time | ${fmt(rest, 1)} s / ${fmt(engine, 1)} s = ${fmt((rest / engine) * 100)}%; load ${load()} | ≤ 10% |`];
  } finally {
    await app.close();
  }
}

export async function runJobsLanesBench(parts: string[] = ['processes', 'fast', 'eta', 'overhead']): Promise<string[]> {
  const minutes = Number(process.env.BENCH_EPISODE_MINUTES ?? 60);
  const hours = Number(process.env.BENCH_FAST_HOURS ?? 10);
  const chunkMs = Number(process.env.BENCH_FAST_CHUNK_MS ?? 500);
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podtext-bench-lanes-audio-'));
  const audio = await startAudioServer();
  const rows: string[] = [];
  try {
    const clip = path.join(scratch, 'clip.mp3');
    await speak(LONG_PASSAGE, clip, { format: 'mp3' });
    const serve = async (name: string, seconds: number) => {
      const file = path.join(scratch, name);
      await loopedMp3(clip, seconds, file);
      audio.file(`/${name}`, await readFile(file));
    };
    if (parts.includes('processes')) {
      if (!databaseUrl) rows.push('| worker processes on PostgreSQL | not run: set BENCH_DATABASE_URL | |');
      else {
        await serve('episode.mp3', minutes * 60);
        rows.push(...(await processes(audio, minutes, databaseUrl)));
      }
    }
    if (parts.includes('fast')) {
      await serve('fast.mp3', hours * 3600);
      rows.push(...(await fastLane(audio, hours, chunkMs)));
    }
    if (parts.includes('eta')) {
      const lengths = [15, 40, 90];
      for (const s of lengths) await serve(`len-${s}.mp3`, s);
      rows.push(...(await etaError(audio, lengths, Number(process.env.BENCH_ETA_EPISODES ?? 20))));
    }
    if (parts.includes('overhead')) {
      await serve('overhead.mp3', Math.min(minutes, 10) * 60);
      rows.push(...(await overhead(audio, Math.min(minutes, 10))));
    }
  } finally {
    await audio.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return ['## Lanes and chunk tasks (this machine)', '| measure | value | goal |', '|---|---|---|', ...rows, '', `cores: ${os.availableParallelism()}; load average (1 min) at the end: ${load()}`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.slice(2);
  console.log((await runJobsLanesBench(only.length ? only : undefined)).join('\n'));
}
