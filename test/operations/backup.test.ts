import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
const scratch: string[] = [];
let t: TestPodtext | null = null;
afterAll(async () => {
  await t?.close();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-backup-'));
  scratch.push(dir);
  return dir;
}

async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWith({ SECRET_KEY: SECRET }, dataDir, ...args);
}

async function cliWith(extra: Record<string, string>, dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent', APPLE_CHARTS_URL: 'off', ...extra };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...args], { env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('backup and restore of a PGlite data directory', () => {
  it('a stopped server\'s database goes to one file and comes back in another directory, keys and credits intact', async () => {
    const dataDir = await tempDir();
    t = await startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: await pgliteTemplate(), env: { SECRET_KEY: SECRET } });
    const a = await t.account({ credits: 7 });
    await t.close();
    t = null;

    // A grant that would pass the largest balance is refused with a message, not a database error.
    const huge = await cli(dataDir, 'grant-credits', a.email, '2147483647');
    expect(huge.code).toBe(1);
    expect(huge.stderr).toContain('credits: the balance (7) may grow to at most 2147483647');

    const file = path.join(await tempDir(), 'podtext.tar.gz');
    const backup = await cli(dataDir, 'backup', file);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(/^Wrote .*podtext\.tar\.gz \(\d+ bytes\)/);
    // The whole database (addresses, key hashes, sealed keys): readable by its owner only, like the live directory.
    expect((await stat(file)).mode & 0o077).toBe(0);

    const fresh = await tempDir();
    // Without the secret the backup was sealed with, or with another one, nothing is restored:
    // the next start would make a new secret that opens none of the backup's keys.
    const keyless = await cliWith({}, fresh, 'restore', file);
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toMatch(/secret\.key/);
    const wrongKey = await cliWith({ SECRET_KEY: 'another-secret-key-that-is-long-enough-9876543210' }, fresh, 'restore', file);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/does not open this backup/);
    expect(await readdir(fresh)).toEqual([]);
    // A truncated copy (an interrupted transfer) restores nothing and leaves the directory empty.
    const truncated = path.join(path.dirname(file), 'truncated.tar.gz');
    await writeFile(truncated, (await readFile(file)).subarray(0, 100_000));
    const damaged = await cli(fresh, 'restore', truncated);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain('is not a Podtext backup, or it is damaged');
    expect(await readdir(fresh)).toEqual([]);
    const restored = await cli(fresh, 'restore', file);
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toContain('Restored');
    // A directory that holds a database is never overwritten.
    const again = await cli(fresh, 'restore', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds a database/);

    // No template: the restored directory is what it opens.
    t = await startTestPodtext({ dataDir: fresh, inMemory: false, pgliteTemplate: undefined, env: { SECRET_KEY: SECRET } });
    const me = await t.api('GET', '/me', { key: a.key });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { credits: number }).credits).toBe(7);
    expect(await readdir(path.join(fresh, 'pglite'))).toContain('PG_VERSION');
    // The key sealed in the backup opens: a known address is mailed its key, not told 500.
    expect((await t.api('POST', '/register/start', { body: { email: a.email } })).status).toBe(200);
  }, 240_000);

  it('replaces an earlier backup with a new file, readable by its owner only', async () => {
    const dataDir = await tempDir();
    expect((await cli(dataDir, 'migrate')).code).toBe(0);
    const file = path.join(await tempDir(), 'podtext.tar.gz');
    await writeFile(file, 'the previous backup', { mode: 0o644 });
    const backup = await cli(dataDir, 'backup', file);
    expect(backup.stderr).toBe('');
    expect((await stat(file)).size).toBeGreaterThan(100_000);
    // The whole database: readable by its owner only, though the file it replaced was not.
    expect((await stat(file)).mode & 0o077).toBe(0);
    expect(await readdir(path.dirname(file))).toEqual(['podtext.tar.gz']);
  }, 240_000);

  it('refuses to back up (or touch) a data directory that holds no database, creating nothing there', async () => {
    const typo = await tempDir();
    const file = path.join(await tempDir(), 'empty.tar.gz');
    for (const args of [['backup', file], ['show-account', 'a@example.com']]) {
      const r = await cliWith({}, typo, ...args);
      expect(r.code, args[0]).toBe(1);
      expect(r.stderr, args[0]).toContain('holds no Podtext database; set DATA_DIR');
    }
    expect(await readdir(typo)).toEqual([]);
    expect(await readdir(path.dirname(file))).toEqual([]);
  }, 60_000);

  it('answers a mistyped option with the usage, not a stack trace', async () => {
    const dir = await tempDir();
    for (const args of [['grant-credits', 'a@example.com', '-5'], ['grant-credits', 'a@example.com', '5', '--reason'], ['refresh-feeds', '--feed', 'xyz']]) {
      const r = await cli(dir, ...args);
      expect(r.code, args.join(' ')).toBeGreaterThan(0);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
    const help = await cli(dir, 'grant-credits', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('grant-credits <email>');
  }, 240_000);
});
