import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type LoadResult, fmt, load, warmKeys } from './bench-server.js';
import { type ChildServer, startChildServer } from './child-server.js';
import type { TranscriptServerInfo } from './seed.js';

/** The query strings measured; the first is the goal's. */
const VARIANTS: [string, string][] = [
  ['json', 'format=json'],
  ['json, timestamps and words', 'format=json&timestamps=1&words=1'],
  ['text', 'format=text'],
  ['srt', 'format=srt'],
  ['vtt', 'format=vtt'],
];

/** The response headers a bare server must send to answer "the same bytes and headers". */
const COPIED_HEADERS = ['content-type', 'etag', 'x-ratelimit-limit', 'x-ratelimit-remaining'];

/** One bare run and the Podtext run right after it. */
interface Round {
  bare: LoadResult;
  podtext: LoadResult;
  bareCpuUs: number;
  podtextCpuUs: number;
  ratio: number;
}

interface Measured {
  name: string;
  bytes: number;
  /** Sorted by ratio; the middle one is reported. */
  rounds: Round[];
}

async function cpuPerRequest<T>(server: ChildServer<T>, run: () => Promise<LoadResult>): Promise<{ result: LoadResult; us: number }> {
  const before = await server.cpuSeconds();
  const result = await run();
  return { result, us: (((await server.cpuSeconds()) - before) / Math.max(1, result.requests)) * 1e6 };
}

/**
 * Warm `GET /api/v1/transcripts/{id}` of an hour-long transcript, unlocked by
 * the key, against a bare node:http server answering the same bytes and
 * headers; each server in its own process, load from this one. The goal's
 * variant runs in several alternating rounds, as the machine's load drifts.
 * Goal: ≥ 60% of the bare server's throughput for `format=json` (the one door's).
 */
export async function runTranscriptBench(options: { seconds?: number; variants?: number; rounds?: number } = {}): Promise<string[]> {
  const seconds = options.seconds ?? 5;
  const app = await startChildServer<TranscriptServerInfo>(['transcript']);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podtext-transcript-bench-'));
  try {
    const { keys, transcriptId } = app.info;
    const measured: Measured[] = [];
    const variants = VARIANTS.slice(0, options.variants);
    // Every variant rendered and the handlers optimised before anything is measured.
    for (const [, query] of variants) await warmKeys(`${app.info.url}/api/v1/transcripts/${transcriptId}?${query}`, keys);
    for (const [, query] of variants) await load(`${app.info.url}/api/v1/transcripts/${transcriptId}?${query}`, { keys, duration: 2 });
    for (const [i, [name, query]] of variants.entries()) {
      const url = `${app.info.url}/api/v1/transcripts/${transcriptId}?${query}`;
      const sample = await fetch(url, { headers: { authorization: `Bearer ${keys[0]}` } });
      const body = Buffer.from(await sample.arrayBuffer());
      if (sample.status !== 200) throw new Error(`${query}: ${sample.status} ${body.toString().slice(0, 200)}`);
      const headers = Object.fromEntries(COPIED_HEADERS.flatMap((h) => (sample.headers.has(h) ? [[h, sample.headers.get(h)!]] : [])));
      const bodyFile = path.join(scratch, `body-${i}`);
      await writeFile(bodyFile, body);
      const bare = await startChildServer<{ url: string }>(['bare', `@${bodyFile}`, JSON.stringify(headers)]);
      try {
        await load(url, { keys, duration: 2 });
        await load(bare.info.url, { duration: 2 });
        const rounds: Round[] = [];
        // The goal's variant gets several full rounds; the others one shorter one.
        const [count, duration] = i === 0 ? [options.rounds ?? 3, seconds] : [1, Math.max(2, Math.round(seconds / 2))];
        for (let r = 0; r < count; r++) {
          const b = await cpuPerRequest(bare, () => load(bare.info.url, { duration }));
          const p = await cpuPerRequest(app, () => load(url, { keys, duration }));
          if (p.result.non2xx || p.result.errors) throw new Error(`${query}: ${p.result.non2xx} non-2xx answers, ${p.result.errors} errors`);
          rounds.push({ bare: b.result, podtext: p.result, bareCpuUs: b.us, podtextCpuUs: p.us, ratio: p.result.rps / b.result.rps });
        }
        measured.push({ name, bytes: body.length, rounds: rounds.sort((a, b) => a.ratio - b.ratio) });
      } finally {
        await bare.stop();
      }
    }
    const middle = (m: Measured) => m.rounds[Math.floor(m.rounds.length / 2)]!;
    const goal = measured[0]!;
    const pct = (x: number) => `${fmt(x * 100, 0)}%`;
    return [
      `## Warm GET /api/v1/transcripts/{id}, one hour (${app.info.segments} segments, ${app.info.words.toLocaleString('en')} words), unlocked (PGlite)`,
      '| format | body KB | bare req/s | Podtext req/s | ratio | bare p50/p99 ms | Podtext p50/p99 ms | CPU µs/req bare / Podtext |',
      '|---|---|---|---|---|---|---|---|',
      ...measured.map((m) => {
        const r = middle(m);
        return `| ${m.name} | ${fmt(m.bytes / 1024, 0)} | ${fmt(r.bare.rps, 0)} | ${fmt(r.podtext.rps, 0)} | ${pct(r.ratio)} | ${r.bare.p50}/${r.bare.p99} | ${r.podtext.p50}/${r.podtext.p99} | ${fmt(r.bareCpuUs, 0)} / ${fmt(r.podtextCpuUs, 0)} |`;
      }),
      '',
      `format=json throughput: ${pct(middle(goal).ratio)} of bare, median of ${goal.rounds.length} rounds (${goal.rounds.map((r) => pct(r.ratio)).join(', ')}); goal ≥ 60%`,
      `format=json server CPU per request: bare ${goal.rounds.map((r) => fmt(r.bareCpuUs, 0)).join('/')} µs, Podtext ${goal.rounds.map((r) => fmt(r.podtextCpuUs, 0)).join('/')} µs (their ratio is the throughput ratio on a core of its own); server RSS ${fmt(await app.rssMb(), 0)} MB`,
    ];
  } finally {
    await app.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx bench/transcript.ts [seconds] [variants]`: variants 1 measures format=json only.
  console.log((await runTranscriptBench({ seconds: Number(process.argv[2] ?? 5), variants: process.argv[3] ? Number(process.argv[3]) : undefined })).join('\n'));
}
