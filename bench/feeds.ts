import { parseFeed } from '../src/core/catalog/feed/parse-feed.js';
import { closeFeedParser, parseFeedOffThread } from '../src/core/catalog/feed/parse-feed-thread.js';
import { bigFeed } from '../test/support/big-feed.js';
import { fmt } from './bench-server.js';

/** The longest the event loop was held (largest gap between 5 ms ticks) while `work` ran, with the work's wall time. */
async function stall(work: () => Promise<unknown>): Promise<{ maxDelayMs: number; wallMs: number }> {
  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
  await new Promise((r) => setTimeout(r, 30));
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 30));
  clearInterval(ticker);
  return { maxDelayMs: maxGap, wallMs };
}

/**
 * Feeds searched by URL or refreshed are parsed on a worker thread: the API
 * thread's longest stall while a 14 MB feed is parsed, on the thread
 * (baseline, as before) and off it, in one run.
 */
export async function runFeedsBench(): Promise<string[]> {
  const body = bigFeed(11_000, 1_000);
  const rows: string[] = [];
  for (const [label, work] of [
    ['on the API thread (before)', async () => parseFeed(body, { maxItems: 1000 })],
    ['on the feed thread (now)', () => parseFeedOffThread(body, { maxItems: 1000 })],
  ] as const) {
    await work(); // warm
    const r = await stall(work);
    rows.push(`| ${label} | ${fmt(body.length / 1e6, 1)} MB | ${fmt(r.wallMs, 0)} | ${fmt(r.maxDelayMs, 0)} |`);
  }
  await closeFeedParser();
  return ['## Feed parsing and the API thread', '| parse | feed | wall ms | longest event-loop stall ms |', '|---|---|---|---|', ...rows];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runFeedsBench()).join('\n'));
}
