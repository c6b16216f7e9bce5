import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../jobs/support/wait.js';
import { type PodtextProcess, processEnv, repo, seededDataDir, watchProcess } from './support/podtext-process.js';
import { processAlive } from '../../src/infra/process-alive.js';

// `npm start` and `npm run worker` as an operator runs them, signalled the way
// a service manager signals its main process: SIGTERM to npm's pid only.

let npm: PodtextProcess | undefined;
afterEach(async () => {
  await npm?.dispose();
  npm = undefined;
});

/** `npm <args>` in its own process group (so that dispose leaves no node behind), once it listens. */
async function spawnNpm(args: string[], env: Record<string, string> = {}): Promise<PodtextProcess> {
  const dataDir = await seededDataDir();
  // WORKERS=0: the outbox and the other loops run, no transcription.
  const child = spawn('npm', args, { cwd: repo, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: processEnv(dataDir, { WORKERS: '0', ...env }) });
  npm = await watchProcess(child, dataDir, { group: true });
  return npm;
}

async function refused(url: string): Promise<boolean> {
  return fetch(url).then(
    () => false,
    (err: { cause?: { code?: string } }) => err.cause?.code === 'ECONNREFUSED',
  );
}

const messages = (p: PodtextProcess) => p.logLines().map((l) => l.msg);

describe('SIGTERM to npm', () => {
  it.each([
    ['start', ['start']],
    ['run worker', ['run', 'worker']],
  ])('npm %s: reaches node, which stops gracefully; nothing is left running or listening; npm exits with node’s code', async (_name, args) => {
    const p = await spawnNpm(args);
    const nodePid = p.logLines().find((l) => l.url === p.url)!.pid as number;
    expect(nodePid).not.toBe(p.child.pid);
    expect((await fetch(`${p.url}/livez`)).status).toBe(200);

    process.kill(p.child.pid!, 'SIGTERM');
    expect(await p.exited).toBe(0);
    expect(messages(p)).toContain('stopping: readiness is 503, finishing requests in flight');
    expect(messages(p)).toContain('stopped');
    expect(processAlive(nodePid)).toBe(false);
    expect(await refused(`${p.url}/livez`)).toBe(true);
  }, 60_000);

  it('a second SIGTERM: node exits 1 at once, and so does npm', async () => {
    const p = await spawnNpm(['start'], { SHUTDOWN_DELAY_SECONDS: '30', SHUTDOWN_GRACE_SECONDS: '60' });
    process.kill(p.child.pid!, 'SIGTERM');
    // Generous: npm relays the signal, and on a loaded machine its own event loop may be slow to.
    await waitFor(() => messages(p).includes('stopping: readiness is 503, finishing requests in flight'), 20_000, 'stopping');
    // Later than the 500 ms within which a repeated signal counts as one.
    await new Promise((r) => setTimeout(r, 700));
    process.kill(p.child.pid!, 'SIGTERM');
    expect(await p.exited).toBe(1);
    expect(messages(p)).toContain('second signal: exiting without waiting');
  }, 60_000);
});

describe('PORT=0 without SITE_URL', () => {
  it('links name the port actually bound, not 0', async () => {
    const p = await spawnNpm(['start']);
    const port = new URL(p.url).port;
    expect(port).not.toBe('0');
    const site = `http://localhost:${port}`;
    expect(p.logLines().find((l) => l.url === p.url)).toMatchObject({ site });

    const res = await fetch(`${p.url}/api/v1/register/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'port-zero@example.com' }) });
    expect(res.status).toBe(200);
    const mail = await waitFor(() => p.logLines().find((l) => typeof l.link === 'string'), 15_000, 'the registration mail');
    expect(mail.link).toMatch(new RegExp(`^${site}/`));
  }, 60_000);
});
