import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recheckAudioSoon } from '../../src/core/transcripts/alignment/audio-check-schedule.js';
import { createAudioChecks } from '../../src/core/transcripts/alignment/audio-check-service.js';
import { inTransaction } from '../../src/core/transaction.js';
import { runAudioChecks } from '../../src/workers/audio-checks.js';
import { type AudioServer, startAudioServer } from '../jobs/support/audio-server.js';
import { waitFor } from '../jobs/support/wait.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
let audio: AudioServer;

beforeAll(async () => {
  audio = await startAudioServer();
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '0' } });
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
});

describe('audio checks when the process stops', () => {
  it('a check cut short and the claimed ones not begun are due again at once, not after the 15-minute claim', async () => {
    const { db, outbound, clock, log, bus, transcripts } = t.podtext.services;
    // Two transcripts whose audio is due for a check; the host never answers for the first.
    const stuck = await addEpisode(t, { doc: sampleDoc() });
    const next = await addEpisode(t, { doc: sampleDoc() });
    audio.handle('/stuck.mp3', () => undefined);
    await db.episode.update({ where: { transcriptId: stuck.transcriptId }, data: { audioUrl: audio.url('/stuck.mp3') } });
    await db.episode.update({ where: { transcriptId: next.transcriptId }, data: { audioUrl: audio.url('/next.mp3') } });
    await inTransaction(db, (tx) => recheckAudioSoon(tx, [stuck.transcriptId]));
    await db.$executeRaw`UPDATE audio_checks SET next_check_at = now() + interval '1 millisecond' WHERE transcript_id = ${next.transcriptId}`;

    const checks = createAudioChecks({ db, outbound, clock, log, scratchDir: join(t.dataDir, 'scratch', 'audio-checks'), stored: transcripts.stored });
    const stop = new AbortController();
    const loop = runAudioChecks(checks, bus, log, stop.signal, { pollMs: 50 });
    await waitFor(() => audio.hits('/stuck.mp3') > 0, 10_000, 'the check of the stuck audio to begin');
    stop.abort();
    await loop;

    expect(audio.hits('/next.mp3')).toBe(0);
    // Another process (or this one restarted) finds both due now.
    expect((await checks.claimDue(10)).sort()).toEqual([stuck.transcriptId, next.transcriptId].sort());
  }, 30_000);
});
