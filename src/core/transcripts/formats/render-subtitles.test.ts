import { readFileSync } from 'node:fs';
import { parseSync } from 'subtitle';
import { describe, expect, it } from 'vitest';
import webvtt from 'webvtt-parser';
import { buildDoc } from './build-doc.js';
import { layoutCues } from './cue-layout.js';
import { parseSrt } from './parse-srt.js';
import { parseTranscript } from './parse-transcript.js';
import { parseVtt } from './parse-vtt.js';
import { renderSrt } from './render-srt.js';
import { renderVtt } from './render-vtt.js';
import type { TranscriptDoc } from './transcript-doc.js';
import { splitWords } from './word-timing.js';

const FIXTURES: [string, string][] = [
  ['pc20-example.srt', 'application/srt'],
  ['pc20-example.vtt', 'text/vtt'],
  ['pocketcasts-sample-single-digit-hours.vtt', 'text/vtt'],
  ['pc20-example.json', 'application/json'],
  ['pc20-example.html', 'text/html'],
];
const load = (name: string, type: string) =>
  parseTranscript(readFileSync(new URL(`../../../../test/fixtures/transcripts/${name}`, import.meta.url)), type);

const edgeDocs: [string, TranscriptDoc][] = [
  ['empty', buildDoc([])],
  [
    'hour-plus, zero-length and out of order',
    {
      language: null,
      wordTimesEstimated: true,
      segments: [
        { start: 7300.5, end: 7302, text: 'Two hours in & <counting>', speaker: 'Dr. Who', words: [] },
        { start: 3599.999, end: 3599.999, text: 'zero length --> here', speaker: null, words: [] },
        { start: 3599.999, end: 3601, text: 'same start', speaker: null, words: [] },
        { start: 1, end: 0.5, text: 'ends before it starts', speaker: 'A', words: [] },
      ],
    },
  ],
  ['untimed', parseTranscript('One paragraph.\n\nAnother one.', 'text/plain')],
];

const allDocs = (): [string, TranscriptDoc][] => [
  ...FIXTURES.map(([name, type]): [string, TranscriptDoc] => [name, load(name, type)]),
  ...edgeDocs,
];

describe.each(allDocs())('subtitles of %s', (_name, doc) => {
  const cues = layoutCues(doc, { labelTurns: false });

  it('SRT is read back by the subtitle package with the same cues and times', () => {
    const labelled = layoutCues(doc, { labelTurns: true });
    const nodes = parseSync(renderSrt(doc)).filter((n) => n.type === 'cue');
    expect(nodes).toHaveLength(labelled.length);
    nodes.forEach((node, i) => {
      if (node.type !== 'cue') return;
      expect(node.data.start).toBe(Math.round(labelled[i].start * 1000));
      expect(node.data.end).toBe(Math.round(labelled[i].end * 1000));
      expect(node.data.text).toBe(labelled[i].lines.join('\n').replaceAll('-->', '->'));
    });
  });

  it('WebVTT passes the W3C webvtt-parser without errors, with the same cues and times', () => {
    const { cues: parsed, errors } = new webvtt.WebVTTParser().parse(renderVtt(doc), 'metadata');
    expect(errors).toEqual([]);
    expect(parsed.map((c) => [c.startTime, c.endTime])).toEqual(cues.map((c) => [c.start, c.end]));
  });

  it('every cue is sorted, non-empty in time and at most two lines of 42', () => {
    cues.forEach((cue, i) => {
      expect(cue.end).toBeGreaterThan(cue.start);
      if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1].start);
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    });
  });

  it('round-trips words and speakers through our own SRT and WebVTT parsers', () => {
    const words = (d: TranscriptDoc) => d.segments.flatMap((s) => splitWords(s.text).map((w) => `${s.speaker}|${w}`));
    const fromVtt = parseVtt(renderVtt(doc));
    expect(words(fromVtt)).toEqual(words(sortedForSubtitles(doc)));
    const fromSrt = parseSrt(renderSrt(doc));
    // SRT has no escaping, so a literal "-->" is written as "->".
    const expected = sortedForSubtitles(doc).segments.map((s) => s.text.replaceAll('-->', '->'));
    expect(fromSrt.segments.map((s) => s.text).join(' ')).toBe(expected.join(' '));
    expect(words(fromSrt).map((w) => w.split('|')[0])).toEqual(srtSpeakers(doc));
  });
});

// SRT labels only the first cue of a turn, so an unknown speaker after a known
// one reads back as that known speaker.
function srtSpeakers(doc: TranscriptDoc): string[] {
  let speaker: string | null = null;
  return sortedForSubtitles(doc).segments.flatMap((s) => {
    speaker = s.speaker ?? speaker;
    return splitWords(s.text).map(() => String(speaker));
  });
}

// Subtitle files list cues by start time, so compare against the same order.
function sortedForSubtitles(doc: TranscriptDoc): TranscriptDoc {
  return { ...doc, segments: [...doc.segments].sort((a, b) => a.start - b.start) };
}

describe('round trip of short-cue transcripts', () => {
  it.each([
    ['pc20-example.srt', 'application/srt'],
    ['pc20-example.vtt', 'text/vtt'],
  ])('parse(render(%s)) gives the same segments', (name, type) => {
    const doc = load(name, type);
    const strip = (d: TranscriptDoc) => d.segments.map(({ start, end, text, speaker }) => ({ start, end, text, speaker }));
    expect(strip(parseSrt(renderSrt(doc)))).toEqual(strip(doc));
    expect(strip(parseVtt(renderVtt(doc)))).toEqual(strip(doc));
  });

  it('escapes markup in WebVTT text and voice names', () => {
    const doc = buildDoc([{ start: 7300.5, end: 7302, text: 'Two hours in & <counting> --> on', speaker: 'Dr. <Who>' }]);
    const vtt = renderVtt(doc);
    expect(vtt).toBe('WEBVTT\n\n02:01:40.500 --> 02:01:42.000\n<v Dr. &lt;Who&gt;>Two hours in &amp; &lt;counting&gt; --&gt; on\n');
    expect(parseVtt(vtt).segments).toEqual(doc.segments);
  });
});
