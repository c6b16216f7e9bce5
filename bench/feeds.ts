import { parseFeed } from '../src/core/catalog/feed/parse-feed.js';
import { closeFeedParser, parseFeedOffThread } from '../src/core/catalog/feed/parse-feed-thread.js';
import { fmt } from './bench-server.js';

/** A valid RSS feed of `n` items with long show notes (about 1.2 KB each). */
function bigFeed(n: number): Buffer {
  const notes = 'Show notes with links and a long description of the guests and the topics of the day. '.repeat(12);
  const items = Array.from({ length: n }, (_, i) =>
    `<item><title>Episode ${i}</title><guid>bench-${i}</guid><pubDate>${new Date(Date.UTC(2010, 0, 1) + i * 86_400_000).toUTCString()}</pubDate>` +
    `<enclosure url="https://cdn.example.com/${i}.mp3" type="audio/mpeg" length="1"/><description>${notes}</description></item>`,
  );
  return Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Bench</title>${items.join('')}</channel></rss>`);
}

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
  const body = bigFeed(11_000);
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
