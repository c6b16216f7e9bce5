import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '../../../src/infra/db/open-database.js';
import { pgliteTemplate } from '../../support/databases.js';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** A real Podtext process (`node --import tsx src/main.ts <command>`), signalled directly: no npx in between. */
export interface PodtextProcess {
  child: ChildProcess;
  dataDir: string;
  /** `http://127.0.0.1:<port>` once listening (an API on everything, a worker on its probes and metrics). */
  url: string;
  output(): string;
  /** The JSON lines it logged. */
  logLines(): Record<string, unknown>[];
  exited: Promise<number | null>;
  dispose(): Promise<void>;
}

/**
 * A scratch data directory whose PGlite database is the run's migrated
 * template: a process starts on it in seconds instead of creating the
 * database first.
 */
export async function seededDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'podtext-process-'));
  const lite = await PGlite.create({ dataDir: join(dataDir, 'pglite'), loadDataDir: await pgliteTemplate(), extensions: pgliteExtensions });
  await lite.close();
  return dataDir;
}

/** What every spawned process gets: a scratch data directory, any free port, no chart import. */
export function processEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
    APPLE_CHARTS_URL: 'off',
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    ...env,
  };
}

/**
 * Follows a spawned process's output until it says where it listens (both
 * roles log the URL). A child spawned `detached` (npm with node below it) is
 * killed with its whole process group on dispose, so nothing is orphaned.
 */
export async function watchProcess(child: ChildProcess, dataDir: string, options: { group?: boolean } = {}): Promise<PodtextProcess> {
  let log = '';
  child.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc: PodtextProcess = {
    child,
    dataDir,
    url: '',
    output: () => log,
    logLines: () =>
      log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    exited,
    async dispose() {
      if (options.group) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is gone
        }
      } else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 60_000;
  while (!proc.url) {
    const m = /is serving .*?on (http:\/\/[^"\s]+)/.exec(log);
    if (m) proc.url = m[1]!;
    else if (child.exitCode !== null || Date.now() > deadline) {
      await proc.dispose();
      throw new Error(`Podtext did not start:\n${log}`);
    }
    else await new Promise((r) => setTimeout(r, 50));
  }
  return proc;
}

export async function spawnPodtext(command: 'serve' | 'worker', env: Record<string, string>): Promise<PodtextProcess> {
  const dataDir = env.DATABASE_URL ? await mkdtemp(join(tmpdir(), 'podtext-process-')) : await seededDataDir();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', command], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: processEnv(dataDir, env) });
  return watchProcess(child, dataDir);
}
