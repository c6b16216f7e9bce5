import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { processEnv, repo, seededDataDir, watchProcess } from '../operations/support/podtext-process.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';
import { waitFor } from './support/wait.js';

let audio: AudioServer;
let dataDir: string;

beforeAll(async () => {
  audio = await startAudioServer();
  dataDir = await seededDataDir();
});

afterAll(async () => {
  await audio?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Podtext in process on the same data directory (the lock of a killed process is taken over). */
const onDataDir = (env: Record<string, string> = {}): Promise<TestPodtext> =>
  startTestPodtext({ dataDir, inMemory: false, pgliteTemplate: undefined, env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1', ...env } });

describe('PGlite: a server killed mid-transcription and started again', () => {
  it('takes the episode up again at once, not after the dead process\'s lease runs out', async () => {
    const setup = await onDataDir();
    const account = await setup.account({ credits: 5 });
    await setup.close();

    // The host holds the first download open: the task is leased to the process about to die.
    let downloads = 0;
    const mp3 = await spokenMp3(SHORT_PASSAGE);
    audio.handle('/crash.mp3', (_req, res) => {
      downloads += 1;
      if (downloads > 1) res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(mp3);
    });
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: processEnv(dataDir, { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1' }),
    });
    const proc = await watchProcess(child, dataDir);
    let jobId: string;
    try {
      const r = await fetch(`${proc.url}/api/v1/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ episodes: [{ guid: newGuid('crash'), url: audio.url('/crash.mp3'), secs: 12 }] }),
      });
      expect(r.status).toBe(200);
      jobId = ((await r.json()) as { job: { id: string } }).job.id;
      await waitFor(async () => downloads === 1 || undefined, 30_000, 'the download to start');
    } finally {
      child.kill('SIGKILL');
      await proc.exited;
    }

    const restarted = await onDataDir();
    try {
      restarted.podtext.startWorkers();
      const started = Date.now();
      // The lease the dead process took runs two minutes; the work must not wait for it.
      const job = await jobDone(restarted, account.key, jobId, 45_000);
      expect(job.episodes[0].status).toBe('ready');
      expect(Date.now() - started).toBeLessThan(45_000);
      expect(downloads).toBe(2);
      const ledger = await restarted.podtext.services.db.ledgerEntry.findMany({ where: { accountId: account.accountId, kind: 'charge' } });
      expect(ledger.map((e) => e.amount)).toEqual([-1]);
    } finally {
      await restarted.close();
    }
  }, 150_000);
});
