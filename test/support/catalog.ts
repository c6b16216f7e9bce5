import { randomBytes } from 'node:crypto';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import type { TranscriptDoc } from '../../src/core/transcripts/formats/transcript-doc.js';
import { saveTranscript } from '../../src/core/transcripts/transcript-store.js';
import { inTransaction } from '../../src/core/transaction.js';
import type { TestPodtext } from './podtext.js';

let nextFeedId = 5_000_000n;

/** A two-speaker document with real word times. */
export function sampleDoc(): TranscriptDoc {
  return {
    language: 'en',
    wordTimesEstimated: false,
    segments: [
      { start: 0, end: 2.5, text: 'Welcome to the show.', speaker: 'Ada', words: [{ w: 'Welcome', s: 0 }, { w: 'to', s: 0.6 }, { w: 'the', s: 0.9 }, { w: 'show.', s: 1.2 }] },
      { start: 2.5, end: 5, text: 'Glad to be here.', speaker: 'Bob', words: [{ w: 'Glad', s: 2.5 }, { w: 'to', s: 3 }, { w: 'be', s: 3.3 }, { w: 'here.', s: 3.7 }] },
    ],
  };
}

/** A show with one episode; with `doc`, the episode is ready with that transcript. */
export async function addEpisode(t: TestPodtext, options: { doc?: TranscriptDoc; durationSeconds?: number; title?: string } = {}) {
  const feedId = nextFeedId++;
  const guid = `test-${randomBytes(8).toString('hex')}`;
  const transcriptId = transcriptIdFor(guid);
  const { db } = t.podtext.services;
  await db.show.create({ data: { id: feedId, title: `Show ${feedId}`, author: 'Tester', searchName: `show ${feedId}`, searchCompact: `show${feedId}` } });
  await db.episode.create({
    data: {
      transcriptId,
      showId: feedId,
      guid,
      title: options.title ?? `Episode ${guid}`,
      durationSeconds: options.durationSeconds ?? 1800,
      audioUrl: `https://media.example/${guid}.mp3`,
      publishedAt: new Date('2026-01-01T00:00:00Z'),
    },
  });
  if (options.doc) await inTransaction(db, (tx) => saveTranscript(tx, { transcriptId, doc: options.doc!, source: 'publisher' }));
  return { feedId, guid, transcriptId };
}
