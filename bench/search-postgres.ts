// Search at 1,000,000 shows on PostgreSQL, against a bare node:http server
// answering the same bytes, measured in the same run. Needs BENCH_DATABASE_URL
// (a role that may create databases); the seeded database is kept between runs.
import pg from 'pg';
import { seedSynthetic } from '../src/core/catalog/imports/seed-synthetic.js';
import { searchKey } from '../src/core/catalog/ingest/search-key.js';
import { benchAccount, fmt, startBareServer, startBenchPodtext } from './bench-server.js';
import { percentile, startBuiltServer, timeGets, typo } from './search-support.js';

const SHOWS = 1_000_000;
const QUERIES = 300;
const DATABASE = 'podtext_bench_1m';

/** The bench database's URL, created when missing. */
async function benchDatabase(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  return url.href;
}

/** Seeds 1M synthetic shows unless they are there; returns 300 titles and a key. */
async function prepare(databaseUrl: string): Promise<{ titles: string[]; key: string; seedSeconds: number | null }> {
  const app = await startBenchPodtext({ DATABASE_URL: databaseUrl }, { seeding: true });
  try {
    const { db } = app.podtext.services;
    const [{ n }] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM shows WHERE source = 'synthetic'`);
    const seedSeconds = n >= SHOWS ? null : (await seedSynthetic(db, { shows: SHOWS })).seconds;
    const rows = await db.$queryRawUnsafe<{ title: string }[]>(`SELECT title FROM shows WHERE source = 'synthetic' ORDER BY md5(id::text) LIMIT ${QUERIES}`);
    return { titles: rows.map((r) => r.title), key: await benchAccount(app.podtext, 'business'), seedSeconds };
  } finally {
    await app.close();
  }
}

/** Goal: search p95 ≤ 15 ms at 1M shows on PostgreSQL, HTTP included. */
export async function runSearchPostgresBench(adminUrl = process.env.BENCH_DATABASE_URL): Promise<string[]> {
  const title = `## Search at ${SHOWS.toLocaleString('en')} shows (PostgreSQL)`;
  if (!adminUrl) return [title, 'skipped: set BENCH_DATABASE_URL to a PostgreSQL role that may create databases'];
  const databaseUrl = await benchDatabase(adminUrl);
  const { titles, key, seedSeconds } = await prepare(databaseUrl);
  const app = await startBuiltServer({ DATABASE_URL: databaseUrl, DATA_DIR: `/tmp/podtext-bench-1m` });
  try {
    const { url } = app.info;
    const headers = { authorization: `Bearer ${key}` };
    const searchUrls = titles.map(typo).map((q) => `${url}/api/v1/search?q=${encodeURIComponent(q)}`);
    await timeGets(searchUrls.slice(0, 50), headers); // warm the JIT and the connections
    const search = await timeGets(searchUrls, headers);
    const found = search.bodies.map((b, i) => (JSON.parse(b) as { shows: { title: string }[] }).shows.map((s) => searchKey(s.title).name).indexOf(searchKey(titles[i]!).name));
    const bare = await startBareServer(search.bodies[0]!, { 'content-type': 'application/json' });
    let base: number[];
    try {
      await timeGets(Array(50).fill(bare.url), {});
      base = (await timeGets(Array(QUERIES).fill(bare.url), {})).ms;
    } finally {
      await bare.close();
    }
    return [
      title,
      `${seedSeconds === null ? 'seeded earlier' : `seeded in ${fmt(seedSeconds)} s`}; after a restart, the search index loaded in ${fmt(app.info.indexLoadMs / 1000)} s`,
      '| request | p50 ms | p95 ms | bare p50 ms | bare p95 ms |',
      '|---|---|---|---|---|',
      `| GET /search, ${QUERIES} typo queries | ${fmt(percentile(search.ms, 50), 2)} | ${fmt(percentile(search.ms, 95), 2)} | ${fmt(percentile(base, 50), 2)} | ${fmt(percentile(base, 95), 2)} |`,
      '',
      `search p95 ${fmt(percentile(search.ms, 95), 2)} ms (goal ≤ 15)`,
      `typo queries finding their show: first ${fmt((found.filter((r) => r === 0).length / found.length) * 100)}%, in the top five ${fmt((found.filter((r) => r >= 0 && r < 5).length / found.length) * 100)}%`,
      `server RSS ${fmt(await app.rssMb(), 0)} MB`,
    ];
  } finally {
    await app.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await runSearchPostgresBench()).join('\n'));
