import { type LoadResult, fmt, load } from './bench-server.js';
import { startChildServer } from './child-server.js';

const ROUNDS = 3;
/** Keys of the warm baseline: enough that none reaches its allowance in a run at 60,000 req/s. */
const WARM_KEYS = 30;

function median(xs: number[]): number {
  return xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/**
 * GET /api/v1/me with 1,000 active keys (the connections together taking the
 * next key in turn) and a flood from one key whose allowance is spent (every answer a 429),
 * each against warm /me from a few keys (`WARM_KEYS`) on the same server in
 * the same run. Goals: both ≥ 50% of the warm throughput.
 */
export async function runMeteringBench(): Promise<string[]> {
  const app = await startChildServer<{ url: string; keys: string[]; spent: string }>(['metering', '1000']);
  try {
    const { keys, spent } = app.info;
    const url = `${app.info.url}/api/v1/me`;
    const refused = await fetch(url, { headers: { authorization: `Bearer ${spent}` } });
    if (refused.status !== 429) throw new Error(`the spent key was answered ${refused.status}, not 429`);
    // The baseline's few warm keys: one key alone would spend its daily
    // allowance (50,000 on Business) in the first seconds of a fast run.
    const warm = keys.slice(0, WARM_KEYS);
    // Warm every key (key lookup and the day's count are read once per account).
    await load(url, { rotateKeys: keys, amount: keys.length * 2 });
    await load(url, { rotateKeys: warm, duration: 2 });
    // Interleaved rounds, so a slow patch of a shared machine hits all three alike.
    const single: LoadResult[] = [];
    const many: LoadResult[] = [];
    const flood: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      single.push(await load(url, { rotateKeys: warm, duration: 3 }));
      many.push(await load(url, { rotateKeys: keys, duration: 3 }));
      flood.push(await load(url, { keys: [spent], duration: 3 }));
    }
    const bad = [...single, ...many].reduce((n, r) => n + r.non2xx, 0);
    if (bad) throw new Error(`non-2xx answers for keys with allowance left: ${bad}`);
    const notRefused = flood.reduce((n, r) => n + r.requests - r.non2xx, 0);
    if (notRefused) throw new Error(`the spent key got ${notRefused} answers that were not refusals`);
    const base = median(single.map((r) => r.rps));
    const row = (name: string, rs: LoadResult[]) => {
      const m = rs.slice().sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)]!;
      return `| ${name} | ${fmt(m.rps, 0)} | ${m.p50} | ${m.p99} | ${fmt((m.rps / base) * 100)}% |`;
    };
    return [
      '## Request metering: 1,000 active keys and a spent key\'s flood (PGlite)',
      `Median of ${ROUNDS} interleaved rounds of 3 s each.`,
      '',
      '| load | req/s | p50 ms | p99 ms | ratio to warm keys |',
      '|---|---|---|---|---|',
      row(`warm /me, ${WARM_KEYS} keys`, single),
      row('1,000 keys, rotating', many),
      row('spent key, every answer 429', flood),
      '',
      `goals: both ≥ 50% of the warm keys' throughput; per-round ratios: 1,000 keys ${many.map((r, i) => fmt((r.rps / single[i]!.rps) * 100, 0)).join('/')}%, spent key ${flood.map((r, i) => fmt((r.rps / single[i]!.rps) * 100, 0)).join('/')}%; server RSS ${fmt(await app.rssMb(), 0)} MB`,
    ];
  } finally {
    await app.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runMeteringBench()).join('\n'));
}
