import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import type { TranscriptMeta } from './render-json.js';
import { renderTranscript } from './render-transcript.js';

// Golden files live in test/fixtures/golden. Any difference fails; after an
// intended change, review the new output and accept it with `vitest -u`.
const golden = (name: string) => `../../../../test/fixtures/golden/${name}`;

const doc = parseTranscript(
  readFileSync(new URL('../../../../test/fixtures/transcripts/pc20-example.vtt', import.meta.url)),
  'text/vtt',
);
const meta: TranscriptMeta = {
  transcriptId: '5f2c0e1d9a8b7c6d',
  title: 'Do you need a podcast trailer?',
  audioUrl: 'https://example.com/trailer-episode.mp3',
  language: 'en',
  source: 'publisher',
  engine: null,
  model: null,
  version: 1,
  durationSeconds: 25.35,
};

// JSON is served compact; the golden copies are indented so they can be read.
const pretty = (json: string) => `${JSON.stringify(JSON.parse(json), null, 2)}\n`;

describe('rendering pc20-example.vtt', () => {
  it.each([
    ['plain JSON', 'pc20-example.plain.json', { timestamps: false, words: false }],
    ['JSON with timestamps', 'pc20-example.timestamps.json', { timestamps: true, words: false }],
    ['JSON with words', 'pc20-example.words.json', { timestamps: true, words: true }],
  ])('matches the golden %s', async (_label, file, options) => {
    await expect(pretty(renderTranscript(doc, meta, 'json', options))).toMatchFileSnapshot(golden(file));
  });

  it.each([
    ['text', 'pc20-example.txt'],
    ['srt', 'pc20-example.srt'],
    ['vtt', 'pc20-example.vtt'],
  ] as const)('matches the golden %s', async (format, file) => {
    await expect(renderTranscript(doc, meta, format)).toMatchFileSnapshot(golden(file));
  });
});
