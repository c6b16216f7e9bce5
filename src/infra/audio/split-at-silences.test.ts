import { execFile } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_PASSAGE } from '../../../test/audio/passages.js';
import { speak } from '../../../test/audio/speak.js';
import { decodeToPcm } from './decode-to-pcm.js';
import { planChunks, splitAtSilences, type Chunk } from './split-at-silences.js';
import { extractChunk, readWavInfo } from './wav-file.js';

const run = promisify(execFile);

function expectTiling(chunks: Chunk[], duration: number, max: number): void {
  expect(chunks[0].startSeconds).toBe(0);
  expect(chunks[chunks.length - 1].endSeconds).toBeCloseTo(duration, 3);
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.endSeconds).toBeGreaterThan(c.startSeconds);
    expect(c.endSeconds - c.startSeconds).toBeLessThanOrEqual(max);
    if (i > 0) expect(c.startSeconds).toBe(chunks[i - 1].endSeconds);
  });
}

describe('planChunks', () => {
  it('keeps a short recording whole', () => {
    expect(planChunks(40, [])).toEqual([{ index: 0, startSeconds: 0, endSeconds: 40 }]);
    expect(planChunks(0, [])).toEqual([]);
  });

  it('cuts inside the pause nearest each target boundary', () => {
    const silences = [
      { startSeconds: 20, endSeconds: 20.5 },
      { startSeconds: 28, endSeconds: 28.4 },
      { startSeconds: 41, endSeconds: 41.6 },
      { startSeconds: 61, endSeconds: 61.3 },
    ];
    const chunks = planChunks(90, silences);
    expect(chunks.map((c) => c.endSeconds)).toEqual([28.3, 61.1, 90]);
    expectTiling(chunks, 90, 60);
  });

  it('cuts a long pause at the target itself', () => {
    const chunks = planChunks(70, [{ startSeconds: 25, endSeconds: 40 }]);
    expect(chunks.map((c) => c.endSeconds)).toEqual([30, 70]);
  });

  it('cuts hard at the target where there is no pause, never past max', () => {
    const chunks = planChunks(200, [], { targetChunkSeconds: 30, maxChunkSeconds: 45 });
    expectTiling(chunks, 200, 45);
    expect(chunks.slice(0, -1).every((c) => c.endSeconds - c.startSeconds === 30)).toBe(true);
  });

  it('ignores pauses out of reach and leaves no tiny last chunk', () => {
    const silences = [
      { startSeconds: 2, endSeconds: 3 },
      { startSeconds: 98, endSeconds: 99 },
    ];
    const chunks = planChunks(100, silences, { targetChunkSeconds: 30, maxChunkSeconds: 60 });
    expectTiling(chunks, 100, 60);
    expect(chunks.every((c) => c.endSeconds - c.startSeconds >= 15)).toBe(true);
  });

  it('holds max even when max is below 1.5 × target', () => {
    const chunks = planChunks(41, [], { targetChunkSeconds: 30, maxChunkSeconds: 40 });
    expectTiling(chunks, 41, 40);
    expect(chunks).toHaveLength(2);
  });
});

describe('splitAtSilences on speech', () => {
  let dir: string;
  let wav: string;
  let duration: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-'));
    await speak(LONG_PASSAGE, join(dir, 'long.mp3'), { format: 'mp3' });
    wav = join(dir, 'long.wav');
    duration = (await decodeToPcm(join(dir, 'long.mp3'), wav)).durationSeconds;
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Loudness around `seconds`, as RMS of 16-bit samples over ±`halfWindow` s. */
  async function rmsAround(seconds: number, halfWindow = 0.05, file = wav): Promise<number> {
    const info = await readWavInfo(file);
    const first = Math.round((seconds - halfWindow) * 16_000);
    const buf = Buffer.alloc(Math.round(2 * halfWindow * 16_000) * 2);
    const fh = await open(file, 'r');
    await fh.read(buf, 0, buf.length, info.dataOffset + first * 2);
    await fh.close();
    let sum = 0;
    for (let i = 0; i < buf.length; i += 2) sum += buf.readInt16LE(i) ** 2;
    return Math.sqrt(sum / (buf.length / 2));
  }

  it('splits about a minute of speech into chunks cut in pauses', async () => {
    expect(duration).toBeGreaterThan(50);
    const chunks = await splitAtSilences(wav, { targetChunkSeconds: 20 });
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expectTiling(chunks, duration, 60);
    const speechLevel = await rmsAround(duration / 2, 2);
    for (const c of chunks.slice(0, -1)) {
      // Speech here is ~3000 RMS, -35 dBFS ~580; a cut must sit in near silence.
      expect(await rmsAround(c.endSeconds)).toBeLessThan(Math.min(300, speechLevel / 20));
    }
  });

  it('cuts speech under steady noise, which never falls silent, between words', async () => {
    const noisy = join(dir, 'noisy.wav');
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', wav, '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.05:r=16000',
      '-filter_complex', '[0][1]amix=inputs=2:duration=first:normalize=0', '-ac', '1', '-c:a', 'pcm_s16le', noisy]);
    const chunks = await splitAtSilences(noisy, { targetChunkSeconds: 20 });
    expectTiling(chunks, duration, 60);
    const speechLevel = await rmsAround(duration / 2, 2);
    for (const c of chunks.slice(0, -1)) {
      // Where the speech itself (without the noise) is near silent: no word is cut in two.
      expect(await rmsAround(c.endSeconds, 0.05, wav)).toBeLessThan(Math.min(300, speechLevel / 20));
    }
  });

  it('extracts chunks whose lengths add up to the recording', async () => {
    const chunks = await splitAtSilences(wav);
    expect(chunks).toHaveLength(2);
    let total = 0;
    for (const c of chunks) {
      const out = join(dir, `chunk-${c.index}.wav`);
      total += await extractChunk(wav, c, out);
      const info = await readWavInfo(out);
      expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
      expect(info.durationSeconds).toBeCloseTo(c.endSeconds - c.startSeconds, 3);
    }
    expect(total).toBeCloseTo(duration, 3);
  });
});
