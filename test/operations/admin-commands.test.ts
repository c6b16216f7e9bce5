import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runAdminCommand } from '../../src/cli/admin.js';
import { loadConfig } from '../../src/config.js';
import { pgliteTemplate } from '../support/databases.js';
import { startTestPodtext, TEST_SECRET_KEY } from '../support/podtext.js';
import { processEnv, repo } from './support/podtext-process.js';

const run = promisify(execFile);
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** `node src/main.ts <args>` (what `npm run cli -- <args>` runs) on `dataDir`; it must stop by itself. */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: repo, env: processEnv(dataDir, { LOG_LEVEL: 'silent' }), timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-cli-'));
  scratch.push(dir);
  return dir;
}

describe('npm run cli without a command', () => {
  it('prints the usage and exits 2 instead of starting a server', async () => {
    const r = await cli(await tempDir());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^No command given\.\nPodtext commands \(npm run cli -- <command>\):\n {2}serve /);
    expect(r.stderr).toContain('grant-credits <email> <credits>');
    expect(r.stderr).toContain('import podcastindex FILE');
  }, 60_000);
});

/** `runAdminCommand` in this process (for lines refused before any database is opened), its stderr captured. */
async function inProcess(dataDir: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SECRET_KEY: TEST_SECRET_KEY });
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await runAdminCommand(config, args[0] ?? '', args.slice(1)), stderr };
  } finally {
    spy.mockRestore();
  }
}

describe('command arguments', () => {
  it('counts are decimal whole numbers the ledger holds, and no command takes more than it names', async () => {
    const dataDir = await tempDir();
    const t = await startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: await pgliteTemplate() });
    const a = await t.account({ credits: 10 });
    await t.close();

    // Refused before the database is opened: what is wrong, the command's usage, exit 2.
    const refusals: [string[], string][] = [
      [['grant-credits', a.email, '0x10'], 'grant-credits: credits: must be a whole number from 1 to 2147483647'],
      [['grant-credits', a.email, '1e3'], 'grant-credits: credits: must be a whole number from 1 to 2147483647'],
      [['grant-credits', a.email, '5.0'], 'grant-credits: credits: must be a whole number from 1 to 2147483647'],
      [['grant-credits', a.email, ''], 'grant-credits: <credits> is missing'],
      [['grant-credits', a.email, '5', 'extra'], 'grant-credits: unexpected argument "extra"'],
      [['grant-credits', a.email, '5', '--customer', 'cus_1'], 'grant-credits: unknown option --customer'],
      [['grant-credits', a.email, '-5'], 'grant-credits: unknown option -5'],
      [['show-account', a.email, a.email], `show-account: unexpected argument "${a.email}"`],
      [['set-plan', a.email, 'pro', 'now'], 'set-plan: unexpected argument "now"'],
      [['set-plan', a.email, 'gold'], 'set-plan: <plan>: must be one of free, plus, pro, business, not "gold"'],
      [['set-plan', a.email, 'Pro'], 'set-plan: <plan>: must be one of free, plus, pro, business, not "Pro"'],
      [['migrate', 'now'], 'migrate: unexpected argument "now"'],
      [['backup', 'a.tar.gz', 'b.tar.gz'], 'backup: unexpected argument "b.tar.gz"'],
      [['restore'], 'restore: <file> is missing'],
      [['add-feed', 'https://example.com/feed.xml', 'extra'], 'add-feed: unexpected argument "extra"'],
      [['add-feed', 'example.com/feed.xml'], 'add-feed: url: not a URL'],
      [['add-feed', 'ftp://example.com/feed.xml'], 'add-feed: url: only http and https feeds can be added'],
      [['import', 'charts', 'a.json', 'b.json'], 'import charts: unexpected argument "b.json"'],
      [['import', 'podcastindex', 'feeds.csv', '--batch', '0x10'], 'import podcastindex: --batch: must be a whole number from 1'],
      [['refresh-feeds', '--limit', '1e3'], 'refresh-feeds: --limit: must be a whole number from 1'],
      [['refresh-feeds', '--feed', 'abc'], 'refresh-feeds: --feed: must be a positive integer'],
      [['refresh-feeds', '--feed', '0'], 'refresh-feeds: --feed: must be a positive integer'],
      // Empty (an unset shell variable) is not "every due feed".
      [['refresh-feeds', '--feed', ''], 'refresh-feeds: --feed: must be a positive integer'],
      [['seed-synthetic'], 'seed-synthetic: --shows is required'],
    ];
    for (const [args, message] of refusals) {
      const r = await inProcess(dataDir, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n').slice(0, 3), args.join(' ')).toEqual([message, 'Usage:', expect.stringMatching(new RegExp(`^ {2}${args.slice(0, args[0] === 'import' ? 2 : 1).join(' ')} `))]);
    }

    // The same through the command line, and a grant that would take the balance past what the ledger holds: nothing moves.
    const huge = await cli(dataDir, 'grant-credits', a.email, '99999999999');
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/^grant-credits: credits: must be a whole number from 1 to 2147483647\nUsage:\n {2}grant-credits <email> <credits>/);
    const overflow = await cli(dataDir, 'grant-credits', a.email, '2147483640');
    expect(overflow).toMatchObject({ code: 1, stderr: 'credits: the balance (10) may grow to at most 2147483647\n' });
    expect(await cli(dataDir, 'grant-credits', a.email, '5')).toMatchObject({ code: 0, stdout: `Granted 5 credits to ${a.email}; balance 15.\n` });
    const shown = await cli(dataDir, 'show-account', a.email);
    const { account, usage } = JSON.parse(shown.stdout) as { account: { credits: number }; usage: { ledger: { amount: number }[] } };
    expect(account.credits).toBe(15);
    expect(usage.ledger.map((e) => e.amount)).toEqual([5, 10]);

    // A file named wrongly is said as such, not as the system call that failed (nor a scratch file's name).
    const missing = path.join(dataDir, 'no-such-chart.json');
    expect(await inProcess(dataDir, 'import', 'charts', missing)).toEqual({ code: 1, stderr: `No such file or directory: ${missing}\n` });
    expect(await inProcess(dataDir, 'backup', dataDir)).toEqual({ code: 1, stderr: `${dataDir} is a directory: name a file\n` });
  }, 120_000);
});
