import { describe, expect, it } from 'vitest';
import { runCommand } from './run-command.js';

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
