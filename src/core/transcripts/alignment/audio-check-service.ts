import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import { type AudioFingerprint, fingerprintAudio } from '../../../infra/audio/fingerprint.js';
import type { Logger } from '../../../infra/logger.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import type { Clock } from '../../clock.js';
import { inTransaction } from '../../transaction.js';
import type { TranscriptDoc } from '../formats/transcript-doc.js';
import { alignAudio } from './align-audio.js';
import { docAlignment, retimeDoc, withoutAlignment } from './retime-doc.js';
import { isIdentity, sameMap, type TimeMap } from './time-map.js';

/** The validators a host served a downloaded file with: the first check asks whether they still hold instead of downloading it again. */
export interface ServedValidators {
  etag: string | null;
  lastModified: string | null;
}

export interface AudioCheckOptions {
  /** Seconds between checks of one episode, spread ±25 %. Default: 21600 (6 hours). */
  intervalSeconds: number;
  /** How long a claimed check is held before another process may take it over, in seconds. Default: 900. */
  leaseSeconds: number;
  /** Largest audio file downloaded, in bytes. Default: 1 GiB. */
  maxDownloadBytes: number;
  /** Whole download, in ms. Default: 1800000 (30 min). */
  downloadTimeoutMs: number;
}

export const defaultAudioCheckOptions: AudioCheckOptions = {
  intervalSeconds: 21_600,
  leaseSeconds: 900,
  maxDownloadBytes: 1024 ** 3,
  downloadTimeoutMs: 30 * 60_000,
};

export interface AudioCheckDeps {
  db: PrismaClient;
  outbound: OutboundClient;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Scratch files go under this directory. */
  scratchDir: string;
  /** Announces a new transcript version once committed (`TranscriptService.stored`). */
  stored(transcriptId: string): void;
  options?: Partial<AudioCheckOptions>;
}

/** What one check did, for logs, tests and the bench. */
export type CheckOutcome =
  | 'no_audio'
  | 'unchanged'
  | 'reference_taken'
  | 'same_map'
  | 'applied'
  | 'refused'
  | 'low_confidence'
  | 'withdrawn'
  | 'superseded'
  | 'failed';

interface CheckRow {
  transcript_id: string;
  episode_audio_url: string | null;
  audio_url: string | null;
  audio_host: string | null;
  reference: Uint8Array | null;
  envelope: Uint8Array | null;
  reference_seconds: number | null;
  fingerprint_tool: string | null;
  etag: string | null;
  last_modified: string | null;
  content_length: bigint | null;
  inserts_ads: boolean;
  last_result: string | null;
  /** A feed took the episode over from a request: the transcript is the requester's file's until this check says otherwise. */
  verify_recording: boolean;
  alignment: TimeMap | null;
  base_doc: TranscriptDoc | null;
  doc: TranscriptDoc;
  version: number;
}

interface Validators {
  etag: string | null;
  lastModified: string | null;
  length: number | null;
  notModified: boolean;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

function itemsToBytes(items: Uint32Array): Buffer {
  const out = Buffer.alloc(items.length * 4);
  items.forEach((v, i) => out.writeUInt32LE(v, i * 4));
  return out;
}

function bytesToItems(bytes: Uint8Array): Uint32Array {
  const buf = Buffer.from(bytes);
  const out = new Uint32Array(Math.floor(buf.length / 4));
  for (let i = 0; i < out.length; i++) out[i] = buf.readUInt32LE(i * 4);
  return out;
}

/**
 * Keeps transcripts' times on the audio their host serves now. The audio a
 * transcript was made on is fingerprinted once (the reference); every
 * `intervalSeconds` (and when a feed refresh sees the enclosure change) the
 * served file is checked: a one-byte conditional request first, a download
 * and fingerprint only when its validators changed or its host is known to
 * insert ads (such hosts change the file behind a constant URL and length).
 * A changed file is aligned to the reference; a confident map re-times the
 * transcript (new version, announced), a different recording or an unsure
 * map leaves the times alone and says why in the log and the audit table.
 */
export function createAudioChecks(deps: AudioCheckDeps) {
  const options = { ...defaultAudioCheckOptions, ...deps.options };
  const { db, log } = deps;

  const nextCheck = () => new Date(deps.clock.now().getTime() + options.intervalSeconds * 1000 * (0.75 + Math.random() * 0.5));

  async function finish(transcriptId: string, result: string, set: { validators?: Validators | null; url?: string; sameRecording?: boolean } = {}): Promise<void> {
    const v = set.validators;
    await db.$executeRaw`
      UPDATE audio_checks SET last_result = ${result}, checked_at = ${deps.clock.now()}, next_check_at = ${nextCheck()}, updated_at = now(),
        verify_recording = verify_recording AND NOT ${set.sameRecording ?? false},
        audio_url = COALESCE(${set.url ?? null}, audio_url), audio_host = COALESCE(${set.url ? hostOf(set.url) : null}, audio_host),
        etag = CASE WHEN ${v !== undefined && v !== null} THEN ${v?.etag ?? null} ELSE etag END,
        last_modified = CASE WHEN ${v !== undefined && v !== null} THEN ${v?.lastModified ?? null} ELSE last_modified END,
        content_length = CASE WHEN ${v !== undefined && v !== null} THEN ${v?.length ?? null}::bigint ELSE content_length END
      WHERE transcript_id = ${transcriptId}`;
  }

  async function audit(transcriptId: string, outcome: string, reason: string | null, audioSeconds: number | null, alignment: TimeMap | null, previous: TimeMap | null): Promise<void> {
    await db.$executeRaw`
      INSERT INTO audio_alignments (transcript_id, outcome, reason, audio_seconds, alignment, previous)
      VALUES (${transcriptId}, ${outcome}, ${reason}, ${audioSeconds}, ${alignment ? JSON.stringify(alignment) : null}::jsonb, ${previous ? JSON.stringify(previous) : null}::jsonb)`;
  }

  /** Validators of the file served now, from a one-byte conditional request (no body is read beyond it). */
  async function probe(url: string, row: CheckRow, signal?: AbortSignal): Promise<Validators> {
    const headers: Record<string, string> = { range: 'bytes=0-0' };
    if (row.etag) headers['if-none-match'] = row.etag;
    else if (row.last_modified) headers['if-modified-since'] = row.last_modified;
    const res = await deps.outbound.request(url, { headers, maxBytes: 1024, truncate: true, timeoutMs: 30_000, signal });
    const total = /\/(\d+)\s*$/.exec(res.headers['content-range'] ?? '')?.[1] ?? (res.status === 200 ? res.headers['content-length'] : undefined);
    return {
      etag: res.headers.etag ?? null,
      lastModified: res.headers['last-modified'] ?? null,
      length: total !== undefined ? Number(total) : null,
      notModified: res.status === 304,
    };
  }

  function unchanged(row: CheckRow, v: Validators): boolean {
    if (v.notModified) return true;
    if (v.etag && row.etag) return v.etag === row.etag;
    if (v.length === null || row.content_length === null) return false;
    return v.length === Number(row.content_length) && v.lastModified === row.last_modified;
  }

  async function fingerprintUrl(url: string, transcriptId: string, signal?: AbortSignal): Promise<AudioFingerprint> {
    const dir = join(deps.scratchDir, `check-${transcriptId}-${Date.now()}`);
    await mkdir(dir, { recursive: true });
    try {
      const file = join(dir, 'audio');
      await deps.outbound.download(url, file, { maxBytes: options.maxDownloadBytes, timeoutMs: options.downloadTimeoutMs, signal });
      return await fingerprintAudio(file, join(dir, 'audio.wav'), { signal });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Writes the re-timed document if the transcript is still the version aligned; false when new words arrived meanwhile. */
  async function apply(row: CheckRow, map: TimeMap, validators: Validators, url: string): Promise<boolean> {
    const now = deps.clock.now();
    const base = withoutAlignment(row.base_doc ?? row.doc);
    const doc: TranscriptDoc = isIdentity(map) ? { ...base, alignment: docAlignment(map, now) } : retimeDoc(base, map, now);
    return inTransaction(db, async (tx) => {
      const written = await tx.$executeRaw`
        UPDATE transcripts SET doc = ${JSON.stringify(doc)}::jsonb, version = version + 1, duration_seconds = ${map.audioSeconds}, updated_at = ${now}
        WHERE transcript_id = ${row.transcript_id} AND version = ${row.version}`;
      if (written === 0) return false;
      await tx.$executeRaw`
        UPDATE audio_checks SET base_doc = ${JSON.stringify(base)}::jsonb, alignment = ${JSON.stringify(map)}::jsonb,
          inserts_ads = inserts_ads OR ${map.inserted.length > 0}, audio_url = ${url}, audio_host = ${hostOf(url)},
          etag = ${validators.etag}, last_modified = ${validators.lastModified}, content_length = ${validators.length}::bigint,
          last_result = 'applied', checked_at = ${now}, next_check_at = ${nextCheck()}, verify_recording = false, updated_at = now()
        WHERE transcript_id = ${row.transcript_id}`;
      await tx.$executeRaw`
        INSERT INTO audio_alignments (transcript_id, outcome, reason, audio_seconds, alignment, previous)
        VALUES (${row.transcript_id}, 'applied', NULL, ${map.audioSeconds}, ${JSON.stringify(map)}::jsonb, ${row.alignment ? JSON.stringify(row.alignment) : null}::jsonb)`;
      return true;
    });
  }

  /**
   * Takes back a transcript made from a requester's file once the feed that
   * took the episode over serves another recording: its words are not this
   * episode's. The episode can then be transcribed from the feed's audio (or
   * its publisher's transcript read); unlocks stay, for the transcript to come.
   */
  async function withdraw(row: CheckRow, reason: string, audioSeconds: number | null): Promise<CheckOutcome> {
    const id = row.transcript_id;
    const done = await inTransaction(db, async (tx) => {
      // Fenced by the version checked: new words stored meanwhile are the feed's audio's.
      const removed = await tx.$executeRaw`DELETE FROM transcripts WHERE transcript_id = ${id} AND version = ${row.version}`;
      if (removed === 0) return false;
      await tx.$executeRaw`DELETE FROM audio_checks WHERE transcript_id = ${id}`;
      await tx.$executeRaw`UPDATE episodes SET transcript_status = 'none', updated_at = now() WHERE transcript_id = ${id}`;
      await tx.$executeRaw`
        INSERT INTO audio_alignments (transcript_id, outcome, reason, audio_seconds, alignment, previous)
        VALUES (${id}, 'withdrawn', ${reason}, ${audioSeconds}, NULL, ${row.alignment ? JSON.stringify(row.alignment) : null}::jsonb)`;
      return true;
    });
    if (!done) return 'superseded';
    deps.stored(id);
    log.warn({ transcriptId: id, url: row.episode_audio_url, reason }, 'the feed that took over a requested episode serves another recording: the transcript made from the requested file is withdrawn');
    return 'withdrawn';
  }

  /** One episode's check, start to end. Never throws: a failure is logged and retried at the next check. */
  async function check(transcriptId: string, signal?: AbortSignal): Promise<CheckOutcome> {
    const rows = await db.$queryRaw<CheckRow[]>`
      SELECT c.transcript_id, e.audio_url AS episode_audio_url, c.audio_url, c.audio_host, c.reference, c.envelope, c.reference_seconds,
        c.fingerprint_tool, c.etag, c.last_modified, c.content_length, c.inserts_ads, c.last_result, c.verify_recording, c.alignment, c.base_doc, t.doc, t.version
      FROM audio_checks c JOIN episodes e ON e.transcript_id = c.transcript_id JOIN transcripts t ON t.transcript_id = c.transcript_id
      WHERE c.transcript_id = ${transcriptId}`;
    const row = rows[0];
    if (!row) return 'superseded';
    const url = row.episode_audio_url;
    const clog = { transcriptId };
    if (!url) {
      await finish(transcriptId, 'no audio URL');
      return 'no_audio';
    }
    try {
      const validators = await probe(url, row, signal).catch(() => null);
      if (row.reference && validators && url === row.audio_url && unchanged(row, validators)) {
        const host = hostOf(url);
        const adsHost = row.inserts_ads || (host !== null && (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM audio_checks WHERE audio_host = ${host} AND inserts_ads`)[0]!.n > 0);
        // A file refused before and still served says the same again: the refusal stays the news. A
        // recording to be vouched for is compared with the reference, not with a file refused before.
        const refusedBefore = /^(refused|low_confidence):/.test(row.last_result ?? '');
        if (!adsHost && !(refusedBefore && row.verify_recording)) {
          await finish(transcriptId, refusedBefore ? row.last_result! : 'unchanged', { sameRecording: !refusedBefore });
          return 'unchanged';
        }
      }
      // Without the requester's file to compare, the feed's audio cannot vouch for a requester's transcript (no download needed to say so).
      if (row.verify_recording && (!row.reference || !row.envelope || row.reference_seconds === null)) {
        return withdraw(row, 'no fingerprint of the requested file to compare the feed\'s audio with', null);
      }
      const print = await fingerprintUrl(url, transcriptId, signal);
      if (!row.reference || !row.envelope || row.reference_seconds === null) {
        const taken = await db.$executeRaw`
          UPDATE audio_checks SET reference = ${itemsToBytes(print.items)}, envelope = ${Buffer.from(print.envelope)}, reference_seconds = ${print.seconds},
            fingerprint_tool = ${print.tool}, audio_url = ${url}, audio_host = ${hostOf(url)}, etag = ${validators?.etag ?? null},
            last_modified = ${validators?.lastModified ?? null}, content_length = ${validators?.length ?? null}::bigint,
            last_result = 'reference taken', checked_at = ${deps.clock.now()}, next_check_at = ${nextCheck()}, updated_at = now()
          WHERE transcript_id = ${transcriptId} AND reference IS NULL`;
        return taken > 0 ? 'reference_taken' : 'superseded';
      }
      if (row.fingerprint_tool !== print.tool) log.warn({ ...clog, reference: row.fingerprint_tool, now: print.tool }, 'fingerprint tool changed since the reference was taken; aligning anyway');
      const reference = { items: bytesToItems(row.reference), envelope: new Uint8Array(row.envelope), seconds: row.reference_seconds };
      const result = alignAudio(reference, print);
      if (result.kind === 'different' && row.verify_recording) return withdraw(row, result.reason, print.seconds);
      if (result.kind !== 'mapped') {
        const outcome = result.kind === 'different' ? 'refused' : 'low_confidence';
        log.warn({ ...clog, url, reason: result.reason, coverage: Math.round(result.coverage * 100) / 100 }, result.kind === 'different' ? 'audio served now is another recording: transcript times left as they were' : 'audio changed but the alignment is not confident: transcript times left as they were');
        await audit(transcriptId, outcome, result.reason, print.seconds, null, row.alignment);
        // The refused file's validators are kept, so that it is not downloaded and refused again every
        // check while its host serves it unchanged (a host known to insert ads is fetched whatever they say).
        // A recording still to be vouched for keeps the old ones: a one-byte answer proves nothing about it.
        await finish(transcriptId, `${outcome}: ${result.reason}`, row.verify_recording ? {} : { validators, url });
        return outcome;
      }
      const current = row.alignment ?? null;
      if (current ? sameMap(current, result.map) : isIdentity(result.map)) {
        await finish(transcriptId, 'same map', { validators, url, sameRecording: true });
        return 'same_map';
      }
      const applied = await apply(row, result.map, validators ?? { etag: null, lastModified: null, length: null, notModified: false }, url);
      if (!applied) return 'superseded';
      deps.stored(transcriptId);
      log.info({ ...clog, adBreaks: result.map.inserted, removed: result.map.removed.length, audioSeconds: result.map.audioSeconds }, 'transcript re-timed to follow re-spliced audio');
      return 'applied';
    } catch (err) {
      if (signal?.aborted) return 'failed';
      log.warn({ ...clog, err: (err as Error).message }, 'audio check failed; trying again at the next check');
      await finish(transcriptId, `failed: ${(err as Error).message.slice(0, 300)}`).catch(() => undefined);
      return 'failed';
    }
  }

  /**
   * Fingerprints the file a transcription is made from, as the reference
   * its transcript adopts once stored (`scheduleAudioReference`). Never
   * throws: without it the audio is fetched again for a reference later.
   */
  async function keepReference(transcriptId: string, audioUrl: string, file: string, served: ServedValidators, signal?: AbortSignal): Promise<void> {
    try {
      const bytes = (await stat(file)).size;
      const print = await fingerprintAudio(file, `${file}.reference.wav`, { signal });
      await db.$executeRaw`
        INSERT INTO audio_pending_references (transcript_id, reference, envelope, reference_seconds, fingerprint_tool, audio_url, audio_host, content_length, etag, last_modified, next_check_at)
        VALUES (${transcriptId}, ${itemsToBytes(print.items)}, ${Buffer.from(print.envelope)}, ${print.seconds}, ${print.tool}, ${audioUrl}, ${hostOf(audioUrl)}, ${bytes}::bigint,
          ${served.etag}, ${served.lastModified}, ${nextCheck()})
        ON CONFLICT (transcript_id) DO UPDATE SET reference = EXCLUDED.reference, envelope = EXCLUDED.envelope, reference_seconds = EXCLUDED.reference_seconds,
          fingerprint_tool = EXCLUDED.fingerprint_tool, audio_url = EXCLUDED.audio_url, audio_host = EXCLUDED.audio_host,
          content_length = EXCLUDED.content_length, etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified, next_check_at = EXCLUDED.next_check_at, created_at = now()`;
    } catch (err) {
      if (!signal?.aborted) log.warn({ transcriptId, err: (err as Error).message }, 'no reference fingerprint from the transcribed file; the audio will be fetched for one');
    }
  }

  return {
    options,
    check,
    keepReference,

    /** Takes up to `limit` due checks, holding each for the lease so no other process runs it meanwhile. */
    async claimDue(limit: number): Promise<string[]> {
      const now = deps.clock.now();
      const until = new Date(now.getTime() + options.leaseSeconds * 1000);
      const rows = await db.$queryRaw<{ transcript_id: string }[]>`
        UPDATE audio_checks SET next_check_at = ${until} WHERE transcript_id IN (
          SELECT transcript_id FROM audio_checks WHERE next_check_at <= ${now} ORDER BY next_check_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING transcript_id`;
      return rows.map((r) => r.transcript_id);
    },

    /**
     * Hands back claimed checks that were not done (the process is stopping):
     * due again at once, for whichever process looks next, instead of after the lease.
     */
    async release(transcriptIds: readonly string[]): Promise<void> {
      if (transcriptIds.length === 0) return;
      await db.$executeRaw`UPDATE audio_checks SET next_check_at = ${deps.clock.now()} WHERE transcript_id = ANY(${[...transcriptIds]})`;
    },

    /** Every recorded outcome of one episode, oldest first (the audit trail). */
    async history(transcriptId: string) {
      return db.$queryRaw<{ outcome: string; reason: string | null; audio_seconds: number | null; alignment: TimeMap | null; previous: TimeMap | null; created_at: Date }[]>`
        SELECT outcome, reason, audio_seconds, alignment, previous, created_at FROM audio_alignments WHERE transcript_id = ${transcriptId} ORDER BY id`;
    },
  };
}

export type AudioChecks = ReturnType<typeof createAudioChecks>;
