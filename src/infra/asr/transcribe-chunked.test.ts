import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_PASSAGE } from '../../../test/audio/passages.js';
import { speak } from '../../../test/audio/speak.js';
import { decodeToPcm } from '../audio/decode-to-pcm.js';
import { splitAtSilences, type Chunk } from '../audio/split-at-silences.js';
import { extractChunk } from '../audio/wav-file.js';
import { createSphinxEngine } from './sphinx-engine.js';
import { transcribeChunked } from './transcribe-chunked.js';
import { wordErrorRate } from './word-error-rate.js';

let dir: string;
let wav: string;
let duration: number;
let chunks: Chunk[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chunked-'));
  await speak(LONG_PASSAGE, join(dir, 'long.mp3'), { format: 'mp3' });
  wav = join(dir, 'long.wav');
  duration = (await decodeToPcm(join(dir, 'long.mp3'), wav)).durationSeconds;
  chunks = await splitAtSilences(wav);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('transcribeChunked with sphinx', () => {
  const sphinx = createSphinxEngine();

  it('stitches a minute of speech from parallel chunks on the file clock', async () => {
    expect(duration).toBeGreaterThan(50);
    expect(chunks).toHaveLength(2);
    const [first, second] = chunks;
    const scratchDir = await mkdtemp(join(dir, 'run-'));
    // Where words around the cut really are: a stretch across it, transcribed on its own.
    const around = { index: 0, startSeconds: first.endSeconds - 6, endSeconds: first.endSeconds + 6 };
    await extractChunk(wav, around, join(dir, 'around.wav'));
    const done: number[] = [];
    const [stitched, reference] = await Promise.all([
      transcribeChunked(sphinx, wav, chunks, {
        concurrency: 2,
        language: 'en',
        scratchDir,
        onChunkDone: (c) => done.push(c.index),
      }),
      sphinx.transcribe(join(dir, 'around.wav'), { language: 'en' }),
    ]);
    expect(done.sort()).toEqual([0, 1]);
    expect(stitched).toMatchObject({ engine: 'sphinx', model: 'en-us', language: 'en' });
    expect(wordErrorRate(LONG_PASSAGE, stitched.text)).toBeLessThanOrEqual(0.15);

    let previous = 0;
    for (const { s, e } of stitched.words) {
      expect(s).toBeGreaterThanOrEqual(previous);
      expect(e).toBeGreaterThanOrEqual(s);
      expect(e).toBeLessThanOrEqual(duration);
      previous = s;
    }

    const inFirst = stitched.words.filter((w) => w.e <= first.endSeconds);
    const inSecond = stitched.words.filter((w) => w.s >= second.startSeconds);
    expect(inFirst.length + inSecond.length).toBe(stitched.words.length);
    expect(inFirst.length).toBeGreaterThan(40);
    expect(inSecond.length).toBeGreaterThan(40);
    // The cut is in a pause, so the second chunk's first word follows it closely.
    expect(inSecond[0].s - second.startSeconds).toBeLessThan(1.5);

    // Away from its edges, the stretch's words must sit where the stitched ones do.
    const inside = reference.words
      .map((w) => ({ ...w, s: w.s + around.startSeconds }))
      .filter((w) => w.s > around.startSeconds + 1 && w.s < around.endSeconds - 1);
    const found = (side: typeof inside): number =>
      side.filter((w) => stitched.words.some((x) => x.w === w.w && Math.abs(x.s - w.s) < 0.3)).length;
    const before = inside.filter((w) => w.s < first.endSeconds);
    const after = inside.filter((w) => w.s > first.endSeconds);
    expect(before.length).toBeGreaterThan(5);
    expect(after.length).toBeGreaterThan(5);
    expect(found(before)).toBeGreaterThanOrEqual(0.8 * before.length);
    expect(found(after)).toBeGreaterThanOrEqual(0.8 * after.length);
    expect(await readdir(scratchDir)).toEqual([]);
    // About 20 s on two idle cores; the margin is for a machine busy with other tests.
  }, 120_000);

  it('stops every chunk when aborted and cleans up', async () => {
    const scratchDir = await mkdtemp(join(dir, 'run-'));
    const controller = new AbortController();
    const pending = transcribeChunked(sphinx, wav, chunks, { concurrency: 2, signal: controller.signal, scratchDir });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(await readdir(scratchDir)).toEqual([]);
  });

  it('returns an empty result for no chunks', async () => {
    expect(await transcribeChunked(sphinx, wav, [], { scratchDir: dir })).toEqual({
      words: [],
      text: '',
      engine: 'sphinx',
      model: 'en-us',
      language: '',
      wordTimesEstimated: false,
    });
  });
});
