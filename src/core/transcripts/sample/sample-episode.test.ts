import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import webvtt from 'webvtt-parser';
import { renderTranscript } from '../formats/render-transcript.js';
import { splitWords } from '../formats/word-timing.js';
import { loadSampleTranscript, sampleEpisode } from './sample-episode.js';
import { TRANSCRIPT_ID } from '../../transcript-id.js';

describe('sample episode', () => {
  it('has the transcript id derived from its guid', () => {
    const sha1 = createHash('sha1').update(sampleEpisode.guid).digest('hex');
    expect(sampleEpisode.transcriptId).toBe(sha1.slice(0, 16));
    expect(sampleEpisode.transcriptId).toMatch(TRANSCRIPT_ID);
    expect(Number.isNaN(Date.parse(sampleEpisode.publishedAt))).toBe(false);
  });

  it('ships a well-formed transcript with real word times inside the audio', () => {
    const doc = loadSampleTranscript();
    expect(doc.language).toBe('en');
    expect(doc.wordTimesEstimated).toBe(false);
    expect(doc.segments).toHaveLength(5);
    expect(doc.segments[0].text).toMatch(/^And Mr\. John Dashwood had then leisure/);
    for (const [i, seg] of doc.segments.entries()) {
      expect(seg.words.map((w) => w.w)).toEqual(splitWords(seg.text));
      expect(seg.words[0].s).toBe(seg.start);
      expect(seg.end).toBeGreaterThan(seg.start);
      expect(seg.end).toBeLessThanOrEqual(sampleEpisode.durationSeconds);
      if (i > 0) expect(seg.start).toBeGreaterThanOrEqual(doc.segments[i - 1].end);
      seg.words.forEach((w, j) => j > 0 && expect(w.s).toBeGreaterThan(seg.words[j - 1].s));
    }
  });

  it('hands out a fresh copy each time', () => {
    const first = loadSampleTranscript();
    first.segments[0].text = 'changed';
    first.segments.pop();
    expect(loadSampleTranscript().segments).toHaveLength(5);
    expect(loadSampleTranscript().segments[0].text).not.toBe('changed');
  });

  it('renders in every format', () => {
    const meta = {
      transcriptId: sampleEpisode.transcriptId,
      title: sampleEpisode.title,
      audioUrl: 'http://localhost:8080/sample/audio.mp3',
      language: null,
      source: 'publisher' as const,
      engine: null,
      model: null,
      version: 1,
      durationSeconds: sampleEpisode.durationSeconds,
    };
    const doc = loadSampleTranscript();
    expect(renderTranscript(doc, meta, 'text')).toMatch(/^And Mr\. John Dashwood/);
    expect(JSON.parse(renderTranscript(doc, meta, 'json')).language).toBe('en');
    expect(new webvtt.WebVTTParser().parse(renderTranscript(doc, meta, 'vtt')).errors).toEqual([]);
    expect(renderTranscript(doc, meta, 'srt')).toMatch(/^1\n00:00:00,150 --> /);
  });
});
