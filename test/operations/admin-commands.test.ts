import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
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
