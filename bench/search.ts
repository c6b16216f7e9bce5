// Search and episode-list latency at 100,000 shows on PGlite, each against a
// bare node:http server answering the same bytes, measured in the same run.
// `npx tsx bench/search.ts` (or import runSearchBench). Server in its own process.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transcriptIdFor } from '../src/core/transcript-id.js';
import { APPLE_CATEGORIES } from '../src/core/catalog/imports/apple-categories.js';
import { seedSynthetic } from '../src/core/catalog/imports/seed-synthetic.js';
import { searchKey } from '../src/core/catalog/ingest/search-key.js';
import { benchAccount, fmt, load, startBareServer, startBenchPodtext } from './bench-server.js';
import { percentile, startBuiltServer, startChild, timeGets, typo } from './search-support.js';

const SHOWS = 100_000;
const BIG_SHOW = 8_999_999_999_999n;
const QUERIES = 300;
const EPISODE_RUNS = 200;

interface SeedInfo {
  titles: string[];
  seedSeconds: number;
  key: string;
}


/** Child mode `seed <dir>`: fill a PGlite data directory with the catalog, then exit. */
async function seed(dataDir: string): Promise<void> {
  const app = await startBenchPodtext({ DATA_DIR: dataDir });
  const { db } = app.podtext.services;
  const seeded = await seedSynthetic(db, { shows: SHOWS, showsWithEpisodes: 200 });
  await db.show.create({ data: { id: BIG_SHOW, title: 'The Thousand Episode Show', searchName: 'the thousand episode show', searchCompact: 'thethousandepisodeshow', lastFetchedAt: new Date(), source: 'synthetic' } });
  const now = Date.now();
  await db.episode.createMany({
    data: Array.from({ length: 1000 }, (_, i) => ({
      transcriptId: transcriptIdFor(`bench-big-${i}`),
      showId: BIG_SHOW,
      guid: `bench-big-${i}`,
      title: `Episode ${1000 - i}: a title of ordinary length for a podcast episode`,
      description: 'A description of a couple of sentences, as feeds usually carry. It says what the episode is about.',
      publishedAt: new Date(now - i * 86_400_000),
      durationSeconds: 1800 + i,
      audioUrl: `https://cdn.example.com/bench/${i}.mp3`,
      episodeNumber: 1000 - i,
    })),
  });
  const rows = await db.$queryRawUnsafe<{ title: string }[]>(`SELECT title FROM shows WHERE source = 'synthetic' ORDER BY md5(id::text) LIMIT ${QUERIES}`);
  const key = await benchAccount(app.podtext, 'business');
  const info: SeedInfo = { titles: rows.map((r) => r.title), seedSeconds: seeded.seconds, key };
  // Closed before answering, so the data is on disk when the server starts.
  await app.close();
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

/**
 * Goals: search p95 ≤ 10 ms and a 1,000-episode list p95 ≤ 30 ms, at
 * 100,000 shows on PGlite. Also reports how often a typo query still finds
 * its show first (hit@1) and among five (hit@5).
 */
export async function runSearchBench(): Promise<string[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-search-bench-'));
  const seeded = await startChild(['--import', 'tsx', fileURLToPath(import.meta.url), 'seed', dataDir], (line) => ('titles' in line ? (line as unknown as SeedInfo) : undefined));
  await seeded.stop();
  // The server as `npm start` runs it (the built bundle), restarted on the seeded data.
  const app = await startBuiltServer({ DATA_DIR: dataDir });
  try {
    const { url } = app.info;
    const { titles, key } = seeded.info;
    const headers = { authorization: `Bearer ${key}` };
    const queries = titles.map(typo);
    const searchUrls = queries.map((q) => `${url}/api/v1/search?q=${encodeURIComponent(q)}`);
    const episodesUrl = `${url}/api/v1/shows/${BIG_SHOW}/episodes?max=1000`;
    await timeGets(searchUrls.slice(0, 50), headers); // warm the JIT and the connection
    await timeGets(Array(10).fill(episodesUrl), headers);

    // The floor every keyed call pays (key check, metering, Hono): GET /me.
    const me = await timeGets(Array(QUERIES).fill(`${url}/api/v1/me`), headers);
    const search = await timeGets(searchUrls, headers);
    const episodes = await timeGets(Array(EPISODE_RUNS).fill(episodesUrl), headers);
    // Trending by category, each a cache miss: categories shows have, and ones none has (a typo).
    const trendingUrl = (category: string) => `${url}/api/v1/trending?category=${encodeURIComponent(category)}`;
    const trendingKnown = await timeGets(APPLE_CATEGORIES.slice(0, 12).map((c) => trendingUrl(c.category)), headers);
    const trendingUnknown = await timeGets(Array.from({ length: 12 }, (_, i) => trendingUrl(`no such category ${i}`)), headers);
    const found = search.bodies.map((b, i) => (JSON.parse(b) as { shows: { title: string }[] }).shows.map((s) => searchKey(s.title).name).indexOf(searchKey(titles[i]!).name));
    const hit1 = found.filter((r) => r === 0).length / found.length;
    const hit5 = found.filter((r) => r >= 0 && r < 5).length / found.length;

    const contentType = { 'content-type': 'application/json' };
    const bareSearch = await startBareServer(search.bodies[0]!, contentType);
    const bareEpisodes = await startBareServer(episodes.bodies[0]!, contentType);
    let baseSearch: number[];
    let baseEpisodes: number[];
    try {
      await timeGets(Array(50).fill(bareSearch.url), {});
      baseSearch = (await timeGets(Array(QUERIES).fill(bareSearch.url), {})).ms;
      baseEpisodes = (await timeGets(Array(EPISODE_RUNS).fill(bareEpisodes.url), {})).ms;
    } finally {
      await bareSearch.close();
      await bareEpisodes.close();
    }
    const throughput = await load(searchUrls[0]!, { headers, duration: 5, connections: 10 });
    const row = (name: string, xs: number[], base: number[]) =>
      `| ${name} | ${fmt(percentile(xs, 50), 2)} | ${fmt(percentile(xs, 95), 2)} | ${fmt(percentile(base, 50), 2)} | ${fmt(percentile(base, 95), 2)} |`;
    return [
      `## Search and episode list at ${SHOWS.toLocaleString('en')} shows (PGlite)`,
      `seeded in ${fmt(seeded.info.seedSeconds)} s; after a restart, the search index loaded in ${fmt(app.info.indexLoadMs, 0)} ms`,
      '| request | p50 ms | p95 ms | bare p50 ms | bare p95 ms |',
      '|---|---|---|---|---|',
      row(`GET /search, ${QUERIES} typo queries`, search.ms, baseSearch),
      row('GET /shows/{id}/episodes?max=1000', episodes.ms, baseEpisodes),
      row('GET /me (the floor of a keyed call)', me.ms, baseSearch),
      row('GET /trending?category=…, 12 categories, each a cache miss', trendingKnown.ms, baseSearch),
      row('GET /trending?category=…, 12 categories no show has', trendingUnknown.ms, baseSearch),
      '',
      `search p95 ${fmt(percentile(search.ms, 95), 2)} ms (goal ≤ 10); episode list p95 ${fmt(percentile(episodes.ms, 95), 2)} ms (goal ≤ 30)`,
      `typo queries finding their show: first ${fmt(hit1 * 100)}%, in the top five ${fmt(hit5 * 100)}%`,
      `one search query, 10 connections: ${fmt(throughput.rps, 0)} req/s, p99 ${throughput.p99} ms`,
      `server RSS ${fmt(await app.rssMb(), 0)} MB after these requests (goal < 400 MB; \`npm start\`'s bundle restarted on the seeded data, search index loaded)`,
    ];
  } finally {
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const [mode, dir] = process.argv.slice(2);
if (mode === 'seed') await seed(dir!);
else if (import.meta.url === `file://${process.argv[1]}`) console.log((await runSearchBench()).join('\n'));
