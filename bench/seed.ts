// What the bench servers (serve-child.ts) put in their database before they
// report: kept apart from the benches' runners, whose run-as-a-script check
// would fire inside the bundled server.
import type { Podtext } from '../src/boot.js';
import { utcDay } from '../src/core/clock.js';
import { plans } from '../src/core/pricing.js';
import { transcriptIdFor } from '../src/core/transcript-id.js';
import { inTransaction } from '../src/core/transaction.js';
import { saveTranscript } from '../src/core/transcripts/transcript-store.js';
import { makeLongTranscript } from '../test/aisearch-eval/long-transcript.js';
import { benchAccount } from './bench-server.js';

/** What the `transcript` bench server reports on start. */
export interface TranscriptServerInfo {
  url: string;
  keys: string[];
  transcriptId: string;
  words: number;
  segments: number;
}

/**
 * A show with one hour-long episode (three speakers, word times) and its
 * transcript, unlocked through the core by every key.
 */
export async function seedBenchTranscript(podtext: Podtext, keys: string[]): Promise<Omit<TranscriptServerInfo, 'url' | 'keys'>> {
  const { db, transcripts } = podtext.services;
  const feedId = 8_888_888_888_888n;
  const guid = 'bench-transcript-hour';
  const transcriptId = transcriptIdFor(guid);
  const { doc } = makeLongTranscript(11, 3600);
  await db.show.create({ data: { id: feedId, title: 'The Long Conversation', author: 'Bench', searchName: 'the long conversation', searchCompact: 'thelongconversation' } });
  await db.episode.create({
    data: { transcriptId, showId: feedId, guid, title: 'Episode 1: an hour of talk', durationSeconds: 3600, audioUrl: 'https://cdn.example.com/bench/hour.mp3', publishedAt: new Date() },
  });
  await inTransaction(db, (tx) => saveTranscript(tx, { transcriptId, doc, source: 'asr', engine: 'sphinx', model: 'en-us', language: 'en', durationSeconds: 3600 }));
  for (const key of keys) await transcripts.unlock(await podtext.services.keys.authenticate(key), transcriptId);
  return { transcriptId, words: doc.segments.reduce((n, s) => n + s.words.length, 0), segments: doc.segments.length };
}

/** `count` business keys and one free key whose daily allowance is spent. */
export async function seedMeteringKeys(podtext: Podtext, count: number): Promise<{ keys: string[]; spent: string }> {
  const { db, keys: keyService, clock } = podtext.services;
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  // One transaction for all of them: seeding is not what is measured.
  const keys = await inTransaction(db, async (tx) => {
    await tx.account.createMany({ data: ids.map((id) => ({ id, email: `${id}@bench.test`, plan: 'business', credits: 100, cycleStartedAt: clock.now() })) });
    const issued: string[] = [];
    for (const id of ids) issued.push(await keyService.issue(tx, id));
    return issued;
  });
  const spent = await benchAccount(podtext, 'free');
  const actor = await podtext.services.keys.authenticate(spent);
  const day = utcDay(podtext.services.clock.now());
  await podtext.services.db.requestCounter.create({ data: { accountId: actor.accountId, day: new Date(`${day}T00:00:00Z`), count: plans.free.dailyRequests } });
  return { keys, spent };
}
