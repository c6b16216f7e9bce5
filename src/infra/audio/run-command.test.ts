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
