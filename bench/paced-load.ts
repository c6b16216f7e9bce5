import { Agent, request } from 'node:http';
import type { LoadResult } from './bench-server.js';

/**
 * Open-loop load at a steady `rate`: request i is due at start + i / rate,
 * whatever became of the others, and its latency is counted from when it was
 * due, so a stall on the server shows in every request it held back (the
 * coordinated-omission correction, done at the true interval). autocannon's
 * `overallRate` is not used for this: each connection sends its whole
 * second's budget at once, and a slow answer is back-filled with one
 * synthetic sample per millisecond of latency, which measures neither a
 * steady rate nor its latency.
 */
export async function paced(url: string, options: { keys?: string[]; rate: number; duration: number }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(options.rate * options.duration);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  let finished = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    const settle = () => {
      if (++finished === total) resolve();
    };
    const send = (i: number) => {
      const due = start + i * interval;
      const key = options.keys?.[i % options.keys.length];
      const req = request(url, { agent, headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
        if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          settle();
        });
      });
      req.on('error', () => {
        errors++;
        settle();
      });
      req.end();
    };
    const tick = setInterval(() => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(sent++);
      if (sent === total) clearInterval(tick);
    }, 1);
  });
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (p: number) => Number((sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0).toFixed(1));
  return { rps: total / ((performance.now() - start) / 1000), p50: at(0.5), p99: at(0.99), requests: total, errors, non2xx };
}
