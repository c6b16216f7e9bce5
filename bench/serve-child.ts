// Runs one benchmark server in its own process so that load generation does not
// share its event loop: `podtext` (PGlite, fresh data dir) or `bare` (same bytes).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchAccount, startBenchPodtext } from './bench-server.js';

const [kind, bodyB64, headersJson] = process.argv.slice(2);
if (kind === 'bare') {
  const body = Buffer.from(bodyB64 ?? '', 'base64');
  const headers = JSON.parse(headersJson ?? '{}') as Record<string, string>;
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
  });
} else {
  const app = await startBenchPodtext();
  // Several business-plan keys so a long run stays inside the daily allowances.
  const keys = [];
  for (let i = 0; i < 8; i++) keys.push(await benchAccount(app.podtext));
  process.stdout.write(`${JSON.stringify({ url: app.url, keys })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
