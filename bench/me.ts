import { fmt, load, warmKeys } from './bench-server.js';
import { startChildServer } from './child-server.js';
import { paced } from './paced-load.js';

/**
 * GET /api/v1/me with a warm key against a bare node:http server answering the
 * same bytes, each server in its own process, load from this one.
 * Goals: ≥ 50% of the bare server's throughput; p99 ≤ 10 ms at 500 req/s.
 */
export async function runMeBench(): Promise<string[]> {
  const app = await startChildServer<{ url: string; keys: string[] }>(['podtext']);
  try {
    const keys = app.info.keys;
    const headers = { authorization: `Bearer ${keys[0]}` };
    const url = `${app.info.url}/api/v1/me`;
    const sample = await fetch(url, { headers });
    const body = Buffer.from(await sample.arrayBuffer());
    const bareHeaders = { 'content-type': 'application/json', 'x-ratelimit-limit': '50000', 'x-ratelimit-remaining': '40000' };
    const bare = await startChildServer<{ url: string }>(['bare', body.toString('base64'), JSON.stringify(bareHeaders)]);
    try {
      await warmKeys(url, keys);
      await load(url, { keys, duration: 2 });
      await load(bare.info.url, { duration: 2 });
      const cpu0 = await bare.cpuSeconds();
      const base = await load(bare.info.url, { duration: 5 });
      const bareCpuUs = ((await bare.cpuSeconds()) - cpu0) / base.requests * 1e6;
      const cpu1 = await app.cpuSeconds();
      const pt = await load(url, { keys, duration: 5 });
      const ptCpuUs = ((await app.cpuSeconds()) - cpu1) / pt.requests * 1e6;
      const steady = await paced(url, { keys, rate: 500, duration: 10 });
      const bareSteady = await paced(bare.info.url, { rate: 500, duration: 5 });
      if (pt.non2xx || steady.non2xx) throw new Error(`non-2xx answers during the bench: ${pt.non2xx + steady.non2xx}`);
      return [
        '## GET /api/v1/me, warm key (PGlite)',
        '| server | req/s | p50 ms | p99 ms |',
        '|---|---|---|---|',
        `| bare node:http (same bytes) | ${fmt(base.rps, 0)} | ${base.p50} | ${base.p99} |`,
        `| Podtext | ${fmt(pt.rps, 0)} | ${pt.p50} | ${pt.p99} |`,
        `| bare at a steady 500 req/s (open loop: the generator's own floor) | ${fmt(bareSteady.rps, 0)} | ${bareSteady.p50} | ${bareSteady.p99} |`,
        `| Podtext at a steady 500 req/s (open loop) | ${fmt(steady.rps, 0)} | ${steady.p50} | ${steady.p99} |`,
        '',
        `throughput ratio: ${fmt((pt.rps / base.rps) * 100)}% of bare (goal ≥ 50%); p99 at 500 req/s: ${steady.p99} ms (goal ≤ 10 ms); server RSS ${fmt(await app.rssMb(), 0)} MB`,
        `server CPU per request: bare ${fmt(bareCpuUs)} µs, Podtext ${fmt(ptCpuUs)} µs (ratio ${fmt((bareCpuUs / ptCpuUs) * 100)}%: the throughput ratio on a core of its own)`,
      ];
    } finally {
      await bare.stop();
    }
  } finally {
    await app.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runMeBench()).join('\n'));
}
