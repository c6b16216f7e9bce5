// `npm run bench [section…]`: every benchmark, each against a baseline measured in the same run.
import { aiSearchReport, runAiSearchBench } from './aisearch-quality.js';
import { runAlignBench } from './align.js';
import { formatAsrTable, runAsrBench } from './asr-accuracy.js';
import { runChaosBench } from './chaos.js';
import { runClusterBench } from './cluster.js';
import { runFeedsBench } from './feeds.js';
import { runAsrQualityBench } from './asr-quality.js';
import { runImportBench } from './import.js';
import { runJobsBench } from './jobs.js';
import { runJobsLanesBench } from './jobs-lanes.js';
import { runMeBench } from './me.js';
import { runMeteringBench } from './metering.js';
import { runSearchPostgresBench } from './search-postgres.js';
import { runSearchBench } from './search.js';
import { runTranscriptBench } from './transcript.js';
import { runWebhooksBench } from './webhooks.js';

const sections: [string, () => Promise<string[]>][] = [
  ['me', runMeBench],
  ['metering', runMeteringBench],
  ['transcript', () => runTranscriptBench()],
  ['search', runSearchBench],
  ['search-postgres', () => runSearchPostgresBench()],
  ['feeds', runFeedsBench],
  ['import', () => runImportBench()],
  ['aisearch', async () => aiSearchReport(runAiSearchBench())],
  [
    'asr',
    async () => [
      ...(await runAsrQualityBench()),
      '',
      '## Speech recognition: every available engine on LibriVox and a minute of flite',
      formatAsrTable(await runAsrBench()),
    ],
  ],
  // Lanes, chunk tasks over worker processes, ETA and overhead; then status-change latency to subscribers.
  ['jobs', async () => [...(await runJobsLanesBench()), '', ...(await runJobsBench(['latency']))]],
  ['webhooks', () => runWebhooksBench({ postgresUrl: process.env.BENCH_DATABASE_URL })],
  ['chaos', runChaosBench],
  ['cluster', () => runClusterBench()],
  ['align', runAlignBench],
];

const only = process.argv.slice(2);
for (const [name, run] of sections) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  try {
    console.log((await run()).join('\n'));
  } catch (err) {
    console.log(`## ${name}: failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
