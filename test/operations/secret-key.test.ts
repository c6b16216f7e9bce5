import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, hasPostgres, pgliteTemplate } from '../support/databases.js';
import { startTestPodtext } from '../support/podtext.js';
import { type PodtextProcess, processEnv, repo, spawnPodtext } from './support/podtext-process.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

/** Starts `serve` and waits for it to exit on its own: the start is refused. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-secret-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: processEnv(dataDir, env) });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, stderr };
}

describe('one secret key per database', () => {
  it.skipIf(!hasPostgres())('a second process on the same PostgreSQL with a secret of its own is refused at start, naming SECRET_KEY', async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    // Each process has its own DATA_DIR and no SECRET_KEY: the first generates one.
    const first: PodtextProcess = await spawnPodtext('serve', { DATABASE_URL: db.url, SECRET_KEY: '', WORKERS: '0' });
    cleanups.push(() => first.dispose());
    const secret = (await readFile(path.join(first.dataDir, 'secret.key'), 'utf8')).trim();

    const second = await refusedStart({ DATABASE_URL: db.url, SECRET_KEY: '', WORKERS: '0' });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('SECRET_KEY: the secret key in use');
    expect(second.stderr).toContain('Every process on one database needs the same secret');
    expect(second.stderr).not.toMatch(/\n\s+at /);

    // With the first process's secret, it starts and reads what the first sealed.
    const third = await spawnPodtext('serve', { DATABASE_URL: db.url, SECRET_KEY: secret, WORKERS: '0' });
    cleanups.push(() => third.dispose());
    const register = await fetch(`${first.url}/api/v1/register/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'same@secret.test' }) });
    expect(register.status).toBe(200);
    const again = await fetch(`${third.url}/api/v1/register/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'same@secret.test' }) });
    expect(again.status).toBe(200);
  }, 120_000);

  it('a PGlite directory started again with another SECRET_KEY is refused, and starts with its own', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-secret-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const t = await startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: await pgliteTemplate() });
    await t.account({ credits: 1 });
    await t.close();

    const other = startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: undefined, env: { SECRET_KEY: 'another-secret-key-that-is-long-enough-9876543210' } });
    await expect(other).rejects.toThrow(/SECRET_KEY: the secret key in use \(SECRET_KEY\) is not the one/);
    const same = await startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: undefined });
    await same.close();
  }, 60_000);
});
