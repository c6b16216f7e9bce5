import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** A real Podtext process (`node --import tsx src/main.ts <command>`), signalled directly: no npx in between. */
export interface PodtextProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` once serving (serve only). */
  url: string;
  output(): string;
  exited: Promise<number | null>;
  dispose(): Promise<void>;
}

export async function spawnPodtext(command: 'serve' | 'worker', env: Record<string, string>): Promise<PodtextProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'podtext-process-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', command], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      APPLE_CHARTS_URL: 'off',
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      ...env,
    },
  });
  let log = '';
  child.stdout!.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc: PodtextProcess = {
    child,
    url: '',
    output: () => log,
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  if (command === 'serve') {
    const deadline = Date.now() + 60_000;
    while (!proc.url) {
      const m = /Podtext is serving on (http:\/\/[^"\s]+)/.exec(log);
      if (m) proc.url = m[1]!;
      else if (child.exitCode !== null || Date.now() > deadline) throw new Error(`Podtext did not start:\n${log}`);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }
  return proc;
}
