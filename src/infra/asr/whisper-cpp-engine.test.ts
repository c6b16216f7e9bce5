import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhisperCppEngine } from './whisper-cpp-engine.js';
import { parseWhisperCppJson } from './whisper-cpp-output.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'whisper-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('whisper-cpp engine: availability', () => {
  it('names everything that is missing', async () => {
    const engine = createWhisperCppEngine({ binaryPath: join(dir, 'whisper-cli') });
    const { ok, reason } = await engine.available();
    expect(ok).toBe(false);
    expect(reason).toContain('no model configured');
    expect(reason).toContain(`${join(dir, 'whisper-cli')} not found`);
    await expect(engine.transcribe(join(dir, 'any.wav'), {})).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('reports a model path that does not exist', async () => {
    const engine = createWhisperCppEngine({ binaryPath: process.execPath, modelPath: join(dir, 'ggml-base.en.bin') });
    expect(await engine.available()).toEqual({ ok: false, reason: `model not found at ${join(dir, 'ggml-base.en.bin')}` });
    expect(engine.model).toBe('ggml-base.en');
  });

  it('is available once a program and a model file are there', async () => {
    // Any program that answers --help stands for the binary here: only its presence is checked.
    await writeFile(join(dir, 'ggml-tiny.bin'), 'model bytes');
    const engine = createWhisperCppEngine({ binaryPath: process.execPath, modelPath: join(dir, 'ggml-tiny.bin') });
    expect(await engine.available()).toEqual({ ok: true });
  });
});

describe('whisper-cpp JSON output', () => {
  it('reads words and language from -oj -ml 1 -sow output', async () => {
    const json = await readFile(new URL('./whisper-cpp-output.sample.json', import.meta.url), 'utf8');
    const { words, language } = parseWhisperCppJson(json);
    expect(language).toBe('en');
    expect(words.map((w) => w.w).join(' ')).toBe('The weather was warm, and the children played in the park.');
    expect(words[0]).toEqual({ w: 'The', s: 0, e: 0.18 });
    expect(words[3]).toEqual({ w: 'warm,', s: 0.7, e: 1.12 });
    expect(words[words.length - 1]).toEqual({ w: 'park.', s: 2.48, e: 3.02 });
  });

  it('joins word pieces from -ojf tokens and drops special tokens', () => {
    const segment = (text: string, from: number, to: number, tokens: [string, number, number][]) => ({
      timestamps: { from: '', to: '' },
      offsets: { from, to },
      text,
      tokens: tokens.map(([t, a, b], id) => ({ text: t, timestamps: { from: '', to: '' }, offsets: { from: a, to: b }, id, p: 0.9, t_dtw: -1 })),
    });
    const json = JSON.stringify({
      result: { language: 'de' },
      transcription: [
        segment(' Guten Morgen, Amerikaner.', 0, 2000, [
          ['[_BEG_]', 0, 0],
          [' Guten', 0, 400],
          [' Mor', 400, 600],
          ['gen', 600, 800],
          [',', 800, 820],
          [' Amerik', 900, 1500],
          ['aner', 1500, 1900],
          ['.', 1900, 2000],
          ['[_TT_100]', 2000, 2000],
        ]),
        segment(' [BLANK_AUDIO]', 2000, 4000, [[' [BLANK_AUDIO]', 2000, 4000]]),
      ],
    });
    expect(parseWhisperCppJson(json)).toEqual({
      language: 'de',
      words: [
        { w: 'Guten', s: 0, e: 0.4 },
        { w: 'Morgen,', s: 0.4, e: 0.82 },
        { w: 'Amerikaner.', s: 0.9, e: 2 },
      ],
      wordTimesEstimated: false,
    });
  });

  it('spreads a multi-word segment over its span when there are no word times', () => {
    const json = JSON.stringify({ transcription: [{ offsets: { from: 1000, to: 2000 }, text: ' ab abc' }] });
    expect(parseWhisperCppJson(json)).toMatchObject({
      words: [
        { w: 'ab', s: 1, e: 1.4 },
        { w: 'abc', s: 1.4, e: 2 },
      ],
      wordTimesEstimated: true,
    });
    // One word per segment (`-ml 1 -sow`) is timed by the segment itself: measured, not spread.
    const oneEach = JSON.stringify({ transcription: [{ offsets: { from: 1000, to: 1400 }, text: ' ab' }, { offsets: { from: 1400, to: 2000 }, text: ' abc' }] });
    expect(parseWhisperCppJson(oneEach).wordTimesEstimated).toBe(false);
  });

  it('survives control characters whisper.cpp leaves unescaped', () => {
    const json = '{"transcription": [{"offsets": {"from": 0, "to": 500}, "text": " tab\there"}]}';
    expect(parseWhisperCppJson(json).words.map((w) => w.w)).toEqual(['tab', 'here']);
  });

  it('rejects what is not JSON', () => {
    expect(() => parseWhisperCppJson('whisper_init_from_file: failed')).toThrow(SyntaxError);
  });
});
