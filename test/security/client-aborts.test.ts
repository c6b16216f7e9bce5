import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { type PodtextProcess, spawnPodtext } from '../operations/support/podtext-process.js';
import { waitFor } from '../jobs/support/wait.js';

// A client that goes away mid-body is routine (mobile networks, impatient
// scripts), and anyone can send many: each must not become an error-level log
// line, or the log floods and real errors drown. Podtext's own process and
// logger, read as an operator reads them: JSON lines on stdout.
let p: PodtextProcess;
let drop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const env: Record<string, string> = { LOG_LEVEL: 'debug', ROLE: 'api' };
  if (hasPostgres()) {
    const db = await freshPostgresDatabase();
    drop = db.drop;
    env.DATABASE_URL = db.url;
  }
  p = await spawnPodtext('serve', env);
}, 120_000);
afterAll(async () => {
  await p?.dispose();
  await drop?.();
});

/** Sends the headers of a 100,000-byte body, a part of it, then cuts the connection. */
function cutOff(path: string, headers: Record<string, string> = {}): Promise<void> {
  const u = new URL(p.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => {
      const head = [`POST ${path} HTTP/1.1`, `Host: ${u.host}`, 'Content-Type: application/json', 'Content-Length: 100000', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${head.join('\r\n')}\r\n\r\n{"email": "${'x'.repeat(2000)}`);
      // Long enough for the server to be reading the body when the client goes away.
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 150);
    });
    socket.on('error', reject);
  });
}

type LogLine = { level: number; msg: string };
const lines = (): LogLine[] =>
  p
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

describe('clients that abort mid-body', () => {
  it('log at debug, never at error; the server goes on answering', async () => {
    const before = lines().length;
    for (let i = 0; i < 5; i++) {
      await cutOff('/api/v1/register/start');
      await cutOff('/graphql');
      await cutOff('/api/v1/requests', { Authorization: `Bearer ptk_${'x'.repeat(43)}` });
    }
    // The REST registrations reached the handler reading the body: one line each, whatever its level.
    // pino levels: 20 debug, 40 warn, 50 error.
    const seen = await waitFor(() => {
      const after = lines().slice(before);
      return after.filter((l) => l.msg === 'client aborted the request' || l.level >= 50).length >= 5 ? after : undefined;
    }, 15_000, () => `a log line for each abort:\n${p.output().slice(-3000)}`);
    expect(seen.filter((l) => l.level >= 40).map((l) => `${l.level} ${l.msg}`)).toEqual([]);
    expect(seen.filter((l) => l.msg === 'client aborted the request').every((l) => l.level === 20)).toBe(true);
    const live = await fetch(`${p.url}/livez`);
    expect(live.status).toBe(200);
    const answered = await fetch(`${p.url}/api/v1/register/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'after-aborts@example.com' }) });
    expect(answered.status).toBe(200);
  }, 60_000);
});
