import { boot } from '../boot.js';
import type { Config } from '../config.js';
import { importCharts } from '../core/catalog/imports/apple-charts.js';
import { importPodcastIndex } from '../core/catalog/imports/import-podcastindex.js';
import { seedSynthetic } from '../core/catalog/imports/seed-synthetic.js';
import { normaliseFeedUrl } from '../core/catalog/ingest/catalog-ingest.js';
import { adminConfig } from './admin-config.js';
import { type CommandSpec, readCommand, usageOf } from './command-line.js';
import { commandMessage } from '../infra/operator-error.js';

const COMMANDS: Record<string, CommandSpec> = {
  'import podcastindex': {
    usage: `  import podcastindex FILE [--restart] [--batch N]  import the Podcast Index feed list (newsfeeds CSV or
                                                    podcastindex_feeds.db); resumes an interrupted import`,
    args: ['file'],
    options: { restart: 'boolean', batch: 'string' },
    counts: { batch: {} },
  },
  'import charts': {
    usage: '  import charts FILE|URL [--genre SLUG|overall]     import an Apple top-podcasts chart (legacy or current JSON)',
    args: ['source'],
    options: { genre: 'string' },
  },
  'add-feed': {
    usage: '  add-feed URL                                      add a podcast feed (or find it) and read it now',
    args: ['url'],
    checks: { url: normaliseFeedUrl },
  },
  'refresh-feeds': {
    usage: '  refresh-feeds [--limit N] [--feed ID]             refresh the feeds that are due now (or one feed)',
    args: [],
    options: { limit: 'string', feed: 'string' },
    counts: { limit: {} },
    ids: ['feed'],
  },
  'seed-synthetic': {
    usage: '  seed-synthetic --shows N [--seed S]               fill the catalog with a synthetic index for benchmarks',
    args: [],
    options: { shows: 'string', seed: 'string' },
    required: ['shows'],
    counts: { shows: {}, seed: {} },
  },
};

export const CATALOG_USAGE = usageOf('Catalog commands:', COMMANDS);

/** Whether `command` is one of this module's (the admin CLI hands them over). */
export function isCatalogCommand(command: string): boolean {
  return Object.keys(COMMANDS).some((name) => name.split(' ')[0] === command);
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Runs one catalog command against the configured database; returns the exit code. */
export async function runCatalogCommand(config: Config, command: string, argv: string[]): Promise<number> {
  const read = readCommand(COMMANDS, command, argv, `Usage:\n${CATALOG_USAGE}`);
  if (typeof read === 'number') return read;
  const { name, args, options, counts, ids } = read;
  const podtext = await boot(adminConfig(config));
  const { db, catalogIngest, outbound, log } = podtext.services;
  const out = (line: string) => process.stdout.write(`${line}\n`);
  try {
    if (name === 'import podcastindex') {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      try {
        const result = await importPodcastIndex(db, args.file!, {
          copyRows: podtext.db.copyRows,
          restart: options.restart as boolean | undefined,
          batchSize: counts.batch,
          signal: stop.signal,
          log,
          onProgress: (p) => process.stderr.write(`\r  ${count(p.rows)} shows  ${count(p.rowsPerSecond)} rows/s   `),
        });
        process.stderr.write('\n');
        if (result.alreadyDone) out(`${args.file} was imported before (${count(result.totalRows)} shows); --restart imports it again.`);
        else out(`${result.finished ? 'Imported' : 'Stopped after'} ${count(result.rows)} shows in ${result.seconds.toFixed(1)} s (${count(result.rowsPerSecond)} rows/s); ${count(result.totalRows)} in all${result.skipped > 0 ? `; ${count(result.skipped)} rows skipped (no usable id, or a feed another row has)` : ''}${result.finished ? '' : ', run again to resume'}.`);
        return result.finished ? 0 : 1;
      } finally {
        process.off('SIGINT', onSignal);
      }
    }
    if (name === 'import charts') {
      const result = await importCharts(db, args.source!, { outbound, genre: options.genre as string | undefined });
      out(`Chart "${result.genre}": ${result.entries} entries.`);
      return 0;
    }
    if (name === 'add-feed') {
      const { feedId, created } = await catalogIngest.addFeedByUrl(args.url!);
      const show = await db.show.findUniqueOrThrow({ where: { id: feedId }, select: { title: true, episodeCountTracked: true } });
      out(`${created ? 'Added' : 'Already known:'} feed ${feedId} "${show.title}", ${show.episodeCountTracked ?? 0} episodes.`);
      return 0;
    }
    if (name === 'refresh-feeds') {
      const feed = ids.feed;
      if (feed !== undefined) {
        const result = await catalogIngest.refreshShow(feed);
        out(`Feed ${feed}: ${result.status}, ${result.newEpisodes} new episodes${result.error ? ` (${result.error})` : ''}.`);
        return result.status === 'failed' ? 1 : 0;
      }
      const summary = await catalogIngest.refreshDue(counts.limit ?? 100);
      out(`Refreshed ${summary.shows} feeds: ${summary.updated} updated, ${summary.notModified} unchanged, ${summary.failed} failed; ${summary.newEpisodes} new episodes, ${summary.transcriptsStored} publisher transcripts.`);
      return 0;
    }
    if (name === 'seed-synthetic') {
      const result = await seedSynthetic(db, {
        shows: counts.shows!,
        seed: counts.seed,
        onProgress: (n) => process.stderr.write(`\r  ${count(n)} shows   `),
      });
      process.stderr.write('\n');
      out(`Seeded ${count(result.shows)} synthetic shows and ${count(result.episodes)} episodes in ${result.seconds.toFixed(1)} s.`);
      return 0;
    }
    throw new Error(`Unknown command "${name}".`);
  } catch (err) {
    process.stderr.write(`${commandMessage(err, args.file ?? args.source)}\n`);
    return 1;
  } finally {
    await podtext.stop();
  }
}
