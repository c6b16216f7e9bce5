import { parseArgs } from 'node:util';
import { boot } from '../boot.js';
import type { Config } from '../config.js';
import { importCharts } from '../core/catalog/imports/apple-charts.js';
import { importPodcastIndex } from '../core/catalog/imports/import-podcastindex.js';
import { seedSynthetic } from '../core/catalog/imports/seed-synthetic.js';

export const CATALOG_USAGE = `Catalog commands:
  import podcastindex FILE [--restart] [--batch N]  import the Podcast Index feed list (newsfeeds CSV or
                                                    podcastindex_feeds.db); resumes an interrupted import
  import charts FILE|URL [--genre SLUG|overall]     import an Apple top-podcasts chart (legacy or current JSON)
  add-feed URL                                      add a podcast feed (or find it) and read it now
  refresh-feeds [--limit N] [--feed ID]             refresh the feeds that are due now (or one feed)
  seed-synthetic --shows N [--seed S]               fill the catalog with a synthetic index for benchmarks`;

/** The commands this module answers; the admin CLI hands them over. */
export const CATALOG_COMMANDS = new Set(['import', 'add-feed', 'refresh-feeds', 'seed-synthetic']);

const OPTIONS = {
  restart: { type: 'boolean' },
  batch: { type: 'string' },
  genre: { type: 'string' },
  limit: { type: 'string' },
  feed: { type: 'string' },
  shows: { type: 'string' },
  seed: { type: 'string' },
} as const;

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function positiveInt(raw: string | undefined, name: string, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

/** Runs one catalog command against the configured database; returns the exit code. */
export async function runCatalogCommand(config: Config, command: string, args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\nUsage:\n${CATALOG_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const podtext = await boot({ ...config, logLevel: 'warn' });
  const { db, catalogIngest, outbound, log } = podtext.services;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (command === 'import' && positionals[0] === 'podcastindex' && positionals[1]) {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      try {
        const result = await importPodcastIndex(db, positionals[1], {
          copyRows: podtext.db.copyRows,
          restart: values.restart,
          batchSize: values.batch === undefined ? undefined : positiveInt(values.batch, 'batch'),
          signal: stop.signal,
          log,
          onProgress: (p) => process.stderr.write(`\r  ${count(p.rows)} shows  ${count(p.rowsPerSecond)} rows/s   `),
        });
        process.stderr.write('\n');
        if (result.alreadyDone) out(`${positionals[1]} was imported before (${count(result.totalRows)} shows); --restart imports it again.`);
        else out(`${result.finished ? 'Imported' : 'Stopped after'} ${count(result.rows)} shows in ${result.seconds.toFixed(1)} s (${count(result.rowsPerSecond)} rows/s); ${count(result.totalRows)} in all${result.skipped > 0 ? `; ${count(result.skipped)} rows skipped (no usable id, or a feed another row has)` : ''}${result.finished ? '' : ', run again to resume'}.`);
        return result.finished ? 0 : 1;
      } finally {
        process.off('SIGINT', onSignal);
      }
    }
    if (command === 'import' && positionals[0] === 'charts' && positionals[1]) {
      const result = await importCharts(db, positionals[1], { outbound, genre: values.genre });
      out(`Chart "${result.genre}": ${result.entries} entries.`);
      return 0;
    }
    if (command === 'add-feed' && positionals[0]) {
      const { feedId, created } = await catalogIngest.addFeedByUrl(positionals[0]);
      const show = await db.show.findUniqueOrThrow({ where: { id: feedId }, select: { title: true, episodeCountTracked: true } });
      out(`${created ? 'Added' : 'Already known:'} feed ${feedId} "${show.title}", ${show.episodeCountTracked ?? 0} episodes.`);
      return 0;
    }
    if (command === 'refresh-feeds') {
      if (values.feed) {
        if (!/^\d{1,19}$/.test(values.feed)) throw new Error('--feed must be a feed id (digits)');
        const result = await catalogIngest.refreshShow(BigInt(values.feed));
        out(`Feed ${values.feed}: ${result.status}, ${result.newEpisodes} new episodes${result.error ? ` (${result.error})` : ''}.`);
        return result.status === 'failed' ? 1 : 0;
      }
      const summary = await catalogIngest.refreshDue(positiveInt(values.limit, 'limit', 100));
      out(`Refreshed ${summary.shows} feeds: ${summary.updated} updated, ${summary.notModified} unchanged, ${summary.failed} failed; ${summary.newEpisodes} new episodes, ${summary.transcriptsStored} publisher transcripts.`);
      return 0;
    }
    if (command === 'seed-synthetic') {
      const shows = positiveInt(values.shows, 'shows');
      const result = await seedSynthetic(db, {
        shows,
        seed: values.seed === undefined ? undefined : positiveInt(values.seed, 'seed'),
        onProgress: (n) => process.stderr.write(`\r  ${count(n)} shows   `),
      });
      process.stderr.write('\n');
      out(`Seeded ${count(result.shows)} synthetic shows and ${count(result.episodes)} episodes in ${result.seconds.toFixed(1)} s.`);
      return 0;
    }
    process.stderr.write(`Usage:\n${CATALOG_USAGE}\n`);
    return 2;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  } finally {
    await podtext.stop();
  }
}
