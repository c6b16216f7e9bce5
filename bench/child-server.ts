import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface ChildServer<T> {
  info: T;
  /** Resident memory of the server process, in MB. */
  rssMb(): Promise<number>;
  /** CPU seconds the server process has used (user + system). */
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
}

let bundled: Promise<string> | undefined;

/**
 * bench/serve-child.ts bundled into dist/ by esbuild as `npm run build`
 * bundles Podtext for `npm start`, so that the server measured runs the code
 * production runs: through tsx it ran another transform (every named closure
 * renamed by a helper call, each time it is made), and loaded the modules
 * through a loader.
 */
function bundle(): Promise<string> {
  const outfile = fileURLToPath(new URL('../dist/bench-serve-child.mjs', import.meta.url));
  bundled ??= build({
    entryPoints: [fileURLToPath(new URL('./serve-child.ts', import.meta.url))],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  }).then(() => outfile);
  return bundled;
}

/** Starts bench/serve-child.ts (bundled) with `args` and waits for its first JSON line. */
export async function startChildServer<T>(args: string[]): Promise<ChildServer<T>> {
  const script = await bundle();
  const child: ChildProcess = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<T>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (l) => resolve(JSON.parse(l) as T));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    info,
    async rssMb() {
      const { readFile } = await import('node:fs/promises');
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async cpuSeconds() {
      const { readFile } = await import('node:fs/promises');
      const fields = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      // utime and stime, in clock ticks of 1/100 s.
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
