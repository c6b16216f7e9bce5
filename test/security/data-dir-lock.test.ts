import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../../src/infra/db/data-dir-lock.js';
import { openDatabase } from '../../src/infra/db/open-database.js';
import { pgliteTemplate } from '../support/databases.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';

// PGlite serves one process: an admin command run beside the server on the
// same data directory would write where the server never looks (and the
// server would overwrite it). It must be refused, naming the server.
const run = promisify(execFile);
const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
let dataDir: string;
let t: TestPodtext | null = null;
let a: TestAccount;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-lock-'));
  t = await startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: await pgliteTemplate() });
  a = await t.account({ credits: 10 });
});
afterAll(async () => {
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir, SECRET_KEY: SECRET, LOG_LEVEL: 'silent', APPLE_CHARTS_URL: 'off' };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('admin commands and a running server on one PGlite data directory', () => {
  it('the command is refused with an error naming the running server, and nothing is lost', async () => {
    const r = await cli('grant-credits', a.email, '5');
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/Granted/);
    expect(r.stderr).toContain('in use by a running Podtext');
    expect(r.stderr).toContain(`pid ${process.pid}`);
    expect(r.stderr).toMatch(/Stop that server first/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const me = (await (await t!.api('GET', '/me', { key: a.key })).json()) as { credits: number };
    expect(me.credits).toBe(10);
  }, 90_000);

  it('once the server has stopped, the same command works and the server sees it on restart', async () => {
    await t!.close();
    t = null;
    const r = await cli('grant-credits', a.email, '5');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('balance 15');
    t = await startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: undefined });
    const me = (await (await t.api('GET', '/me', { key: a.key })).json()) as { credits: number };
    expect(me.credits).toBe(15);
  }, 90_000);
});

// A container restarted after a SIGKILL (docker restart, the OOM killer) runs
// on the same host name as the same pid, often 1: the lock its dead
// predecessor left names this process's own pid.
describe('a lock left by an earlier process with this pid and host', () => {
  it('is taken over, while this process still cannot open the directory twice', async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'podtext-lock-')), 'pglite');
    const since = new Date(Date.now() - 60_000).toISOString();
    await writeFile(`${dir}.lock`, JSON.stringify({ pid: process.pid, host: os.hostname(), command: 'podtext.mjs serve', since }));
    const db = await openDatabase({ pgliteDir: dir, pgliteTemplate: await pgliteTemplate() });
    try {
      expect(JSON.parse(await readFile(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, started: performance.timeOrigin });
      await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await db.close();
      await rm(path.dirname(dir), { recursive: true, force: true });
    }
  }, 60_000);
});
