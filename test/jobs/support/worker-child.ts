import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A real `ROLE=worker` process (`node --import tsx src/main.ts worker`) on a
 * shared PostgreSQL. Node runs it directly with tsx's loader: the tsx command
 * would stand between, and it SIGKILLs a child that has not answered a
 * SIGTERM within 60 ms, so a busy worker never got to stop gracefully.
 */
export interface WorkerChild {
  child: ChildProcess;
  /** Everything it logged, for failure messages. */
  output(): string;
  /** Signals the process group (node and any ffmpeg or pocketsphinx below it), as a service manager does. */
  kill(signal: NodeJS.Signals): void;
  exited: Promise<number | null>;
  dispose(): Promise<void>;
}

export async function spawnWorker(env: { databaseUrl: string; outboundAllow: string; workers?: number; extra?: Record<string, string> }): Promise<WorkerChild> {
  const dataDir = await mkdtemp(join(tmpdir(), 'podtext-worker-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
    cwd: repo,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: env.databaseUrl,
      DATA_DIR: dataDir,
      WORKERS: String(env.workers ?? 1),
      OUTBOUND_ALLOW: env.outboundAllow,
      LOG_LEVEL: 'info',
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      ...env.extra,
    },
  });
  let log = '';
  child.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  return {
    child,
    output: () => log,
    kill,
    exited,
    async dispose() {
      kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Kills the process group of the worker whose node process is `pid` (as in a
 * task's `worker_id`, `host:pid:…`): the child we spawned, and everything below it.
 */
export async function killWorkerByPid(children: readonly WorkerChild[], pid: number, signal: NodeJS.Signals): Promise<WorkerChild> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  const owner = children.find((c) => c.child.pid === group);
  if (!owner) throw new Error(`process ${pid} is not one of our workers`);
  owner.kill(signal);
  return owner;
}
