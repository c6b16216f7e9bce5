// Runs one benchmark server in its own process so that load generation does not
// share its event loop: `podtext` (PGlite, fresh data dir), `transcript` (the
// same with an hour-long transcript unlocked by every key), `metering` (many
// keys and one that has spent its allowance) or `bare` (same
// bytes; `@file` reads them from a file, for bodies too long for an argument).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchAccount, startBenchPodtext } from './bench-server.js';
import { seedBenchTranscript, seedMeteringKeys } from './seed.js';

const [kind, bodyArg, headersJson] = process.argv.slice(2);
/** Accounts whose keys the load rotates over. Default: 300. */
const KEY_POOL = Number(process.env.BENCH_KEY_POOL ?? 300);
if (kind === 'bare') {
  const body = bodyArg?.startsWith('@') ? readFileSync(bodyArg.slice(1)) : Buffer.from(bodyArg ?? '', 'base64');
  const headers = JSON.parse(headersJson ?? '{}') as Record<string, string>;
  process.on('SIGTERM', () => process.exit(0));
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
  });
} else if (kind === 'metering') {
  const app = await startBenchPodtext();
  const extra = await seedMeteringKeys(app.podtext, Number(bodyArg ?? 1000));
  process.stdout.write(`${JSON.stringify({ url: app.url, ...extra })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  const app = await startBenchPodtext();
  // A pool of business-plan accounts, as real traffic comes from many keys
  // (and a long run stays inside the daily allowances).
  const keys = [];
  for (let i = 0; i < KEY_POOL; i++) keys.push(await benchAccount(app.podtext));
  const extra = kind === 'transcript' ? await seedBenchTranscript(app.podtext, keys) : {};
  process.stdout.write(`${JSON.stringify({ url: app.url, keys, ...extra })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
