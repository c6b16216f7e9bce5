import type { TranscriptDoc } from '../formats/transcript-doc.js';
import sampleTranscript from './sample-transcript.json' with { type: 'json' };

/** The one episode whose transcript anyone may read without a key. */
export interface SampleEpisode {
  /** First 16 hex digits of SHA-1 of `guid`. */
  transcriptId: string;
  guid: string;
  title: string;
  showTitle: string;
  /** Length of the five clips back to back, in seconds. */
  durationSeconds: number;
  /** ISO 8601 timestamp. */
  publishedAt: string;
}

/**
 * The public sample episode: an excerpt of Jane Austen's *Sense and
 * Sensibility*, chapter 1, read for LibriVox (public domain).
 */
export const sampleEpisode: Readonly<SampleEpisode> = Object.freeze({
  transcriptId: '97ab7f764b594d58',
  guid: 'podtext-sample-librivox',
  title: 'Sense and Sensibility, Chapter 1 (excerpt)',
  showTitle: 'Podtext Sample: Public Domain Readings',
  durationSeconds: 24.73,
  publishedAt: '2025-01-01T00:00:00.000Z',
});

/**
 * Returns the sample episode's transcript. Each call returns a fresh copy, so
 * a caller changing it cannot change what the next caller gets.
 *
 * @example renderTranscript(loadSampleTranscript(), meta, 'vtt')
 */
export function loadSampleTranscript(): TranscriptDoc {
  return structuredClone(sampleTranscript) as TranscriptDoc;
}
