import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_PASSAGE } from '../../../test/audio/passages.js';
import { speak } from '../../../test/audio/speak.js';
import { decodeToPcm } from '../audio/decode-to-pcm.js';
import { performance } from 'node:perf_hooks';
import { runCommand } from '../audio/run-command.js';
import { AsrError } from './asr-engine.js';
import { chooseWarp } from './speaker-warp.js';
import { argsWith, createSphinxEngine } from './sphinx-engine.js';
import { wordErrorRate } from './word-error-rate.js';

let dir: string;
let wav: string;
let duration: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sphinx-'));
  await speak(SHORT_PASSAGE, join(dir, 'short.mp3'), { format: 'mp3' });
  wav = join(dir, 'short.wav');
  duration = (await decodeToPcm(join(dir, 'short.mp3'), wav)).durationSeconds;
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('sphinx engine', () => {
  const sphinx = createSphinxEngine();

  it('is available with the Debian packages', async () => {
    expect(await sphinx.available()).toEqual({ ok: true });
    expect(sphinx).toMatchObject({ name: 'sphinx', model: 'en-us' });
  });

  it('transcribes spoken English from an MP3 within 15% WER, with timed words', async () => {
    const result = await sphinx.transcribe(wav, { language: 'en' });
    expect(result).toMatchObject({ engine: 'sphinx', model: 'en-us', language: 'en' });
    expect(wordErrorRate(SHORT_PASSAGE, result.text)).toBeLessThanOrEqual(0.15);
    expect(result.words.length).toBeGreaterThan(20);
    let previous = 0;
    for (const { w, s, e } of result.words) {
      expect(w).toMatch(/^[a-z']+$/);
      expect(s).toBeGreaterThanOrEqual(previous);
      expect(e).toBeGreaterThanOrEqual(s);
      expect(e).toBeLessThanOrEqual(duration);
      previous = s;
    }
    expect(result.text).toBe(result.words.map((x) => x.w).join(' '));
  });

  it('takes tuning arguments in place of its own values of the same flags', async () => {
    expect(argsWith(['-lw', '5', '-topn', '8'], ['-topn', '16', '-ds', '2'])).toEqual(['-lw', '5', '-topn', '16', '-ds', '2']);
    // pocketsphinx refuses a flag given twice: these were the engine's own (scoring, the one-utterance decode).
    const tuned = createSphinxEngine({ extraArgs: ['-topn', '4', '-remove_silence', 'yes'] });
    const result = await tuned.transcribe(wav, { language: 'en', vocabulary: ['Marcus Webb'] });
    expect(wordErrorRate(SHORT_PASSAGE, result.text)).toBeLessThanOrEqual(0.15);
  });

  it('refuses other languages and non-16 kHz input', async () => {
    await expect(sphinx.transcribe(wav, { language: 'de' })).rejects.toMatchObject({ code: 'unsupported_language' });
    await expect(sphinx.transcribe(join(dir, 'short.mp3'), {})).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringContaining('not a RIFF/WAVE file'),
    });
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const pending = sphinx.transcribe(wav, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('stops while reading the speaker\'s pitch when aborted, without waiting for it to finish', async () => {
    // A minute of a steady 170 Hz tone: every frame is voiced, so the pitch reading does all its work.
    const tone = join(dir, 'tone.wav');
    await runCommand('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=170:duration=60', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', tone], { timeoutMs: 60_000 });
    let whole = Infinity;
    for (let i = 0; i < 2; i++) {
      const began = performance.now();
      expect((await chooseWarp(tone)).warp).toBeGreaterThan(1);
      whole = Math.min(whole, performance.now() - began);
    }

    // Aborted a quarter of the way through the reading: it stops there rather than finishing first.
    const controller = new AbortController();
    const began = performance.now();
    const pending = sphinx.transcribe(tone, { signal: controller.signal });
    setTimeout(() => controller.abort(), whole / 4);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(performance.now() - began).toBeLessThan(whole * 0.75);
  });

  it('says what is missing', async () => {
    const noBinary = await createSphinxEngine({ binaryPath: '/nonexistent/pocketsphinx_continuous' }).available();
    expect(noBinary).toMatchObject({ ok: false, reason: expect.stringContaining('not found') });
    const noModel = await createSphinxEngine({ modelDir: join(dir, 'no-model') }).available();
    expect(noModel).toMatchObject({ ok: false, reason: expect.stringContaining('acoustic model') });
    await expect(
      createSphinxEngine({ binaryPath: '/nonexistent/pocketsphinx_continuous' }).transcribe(wav, {}),
    ).rejects.toBeInstanceOf(AsrError);
  });
});
