import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';
import { processAlive } from '../process-alive.js';
import { waitFor } from '../../../test/jobs/support/wait.js';

// The CPU limit is read from /proc: Linux only, as Podtext's image is.
describe.runIf(process.platform === 'linux')('runCommand CPU-time limit', () => {
  it('kills a program that computes past its CPU allowance, long before its wall-clock limit', async () => {
    const began = Date.now();
    const run = await runCommand(process.execPath, ['-e', 'for (;;) {}'], { cpuLimitMs: 500, timeoutMs: 120_000 });
    expect(run.timedOut).toBe(true);
    expect(run.killedBy).toBe('SIGKILL');
    expect(Date.now() - began).toBeLessThan(60_000);
  });

  it('lets a program that waits (as a recogniser starved of CPU on a busy machine does) run past the allowance in wall time', async () => {
    const run = await runCommand('sleep', ['2'], { cpuLimitMs: 500, timeoutMs: 60_000 });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('runCommand stopped from outside', () => {
  it('reports a program ended by a stop signal it did not send as an interruption, not as an exit status', async () => {
    // As a group kill or a terminal's Ctrl-C reaches the tools below Podtext.
    const run = runCommand('sh', ['-c', 'kill -TERM $$; sleep 30'], { timeoutMs: 60_000 });
    await expect(run).rejects.toMatchObject({ name: 'CommandInterrupted', signal: 'SIGTERM' });
  });

  it('still resolves when its own signal aborted the program', async () => {
    const controller = new AbortController();
    const run = runCommand('sleep', ['30'], { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await run).toMatchObject({ aborted: true, killedBy: 'SIGKILL' });
  });
});

describe.runIf(process.platform === 'linux')('runCommand when Podtext dies', () => {
  it('a program it started dies with it, even when Podtext is killed with SIGKILL', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const module = fileURLToPath(new URL('./run-command.ts', import.meta.url));
    const script = `import { runCommand } from ${JSON.stringify(module)};
      void runCommand('sleep', ['60'], { timeoutMs: 120000 });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' });
    const sleeper = await waitFor(async () => (await childOf(parent.pid!, 'sleep')) ?? undefined, 15_000, 'the sleep child');
    parent.kill('SIGKILL');
    try {
      expect(await waitFor(() => (processAlive(sleeper) ? undefined : 'gone'), 15_000, 'the sleep child to die')).toBe('gone');
    } finally {
      if (processAlive(sleeper)) process.kill(sleeper, 'SIGKILL');
    }
  });

  it('a program that is not installed still rejects with ENOENT', async () => {
    await expect(runCommand('podtext-no-such-program', [], { timeoutMs: 10_000 })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

async function childOf(pid: number, name: string): Promise<number | null> {
  const { readFile, readdir } = await import('node:fs/promises');
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (stat.includes(`(${name})`) && Number(fields[1]) === pid) return Number(entry);
  }
  return null;
}
