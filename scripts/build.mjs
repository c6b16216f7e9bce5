// Builds dist/podtext.mjs (and its import worker), the bundle `npm start`, `npm run worker` and
// `npm run cli` run. Podtext's own modules are bundled into one file (packages
// stay in node_modules): loading TypeScript through a loader at run time cost
// a server about 100 MB of memory and a second to start.
import { build } from 'esbuild';

await build({
  // The import's and the feeds' parsing threads run from their own files beside the bundle.
  entryPoints: {
    podtext: 'src/main.ts',
    'podcastindex-batches-worker': 'src/core/catalog/imports/podcastindex-batches-worker.ts',
    'parse-feed-worker': 'src/core/catalog/feed/parse-feed-worker.ts',
  },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
