import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
import type { Logger } from '../../infra/logger.js';
import type { Actor } from '../accounts/actor.js';
import { DomainError } from '../errors.js';
import { prices } from '../pricing.js';
import { inTransaction } from '../transaction.js';
import { unlockInTransaction } from '../unlock.js';
import { type TranscriptFormat, contentTypes, renderTranscript } from './formats/render-transcript.js';
import type { TranscriptDoc } from './formats/transcript-doc.js';
import { assertTranscriptId } from '../transcript-id.js';
import { createTranscriptVersions } from './transcript-versions.js';
import { countWords } from './transcript-store.js';
import { REQUESTED_SHOW_ID } from '../jobs/resolve-episodes.js';

/**
 * The audio address shown to readers: none for an episode requested by audio
 * URL, whose address came from one account's request (and may carry its
 * private token) and is shown to that account only (see `supplierOf`).
 */
function shownAudioUrl(episode: { audioUrl: string | null; showId: bigint }): string | null {
  return episode.showId === REQUESTED_SHOW_ID ? null : episode.audioUrl;
}

/** Every format an unlock covers. */
export const FORMATS: TranscriptFormat[] = ['json', 'text', 'txt', 'srt', 'vtt'];

/** Bytes of rendered bodies kept in memory. Default: 64 MB. */
const RENDER_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * Parsed documents kept in memory, by their estimated size. Default: 64 MB,
 * a dozen four-hour episodes: reading one from the database and parsing it
 * takes ~25 ms, which GraphQL's typed segments and the episode page would
 * otherwise pay on every read.
 */
const DOCUMENT_CACHE_BYTES = 64 * 1024 * 1024;

/** Memory a parsed document takes, roughly: its words dominate. */
function documentBytes(stored: StoredTranscript): number {
  return 2_048 + stored.doc.segments.length * 200 + countWords(stored.doc) * 120;
}

/** `make()` once at a time per key: callers while it runs share its promise. */
function shared<T>(inFlight: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let pending = inFlight.get(key);
  if (!pending) {
    pending = make().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

export interface RenderedTranscript {
  /** UTF-8, encoded once per version and variant, so serving it copies no text. */
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  version: number;
  /** Names this body and no other (version and variant): the `ETag`. Options that change nothing leave it alone. */
  tag: string;
}

export interface StoredTranscript {
  version: number;
  doc: TranscriptDoc;
  meta: Parameters<typeof renderTranscript>[1];
  /** The audio URL of an episode requested by URL: for the account that supplied it only. */
  suppliedAudioUrl: string | null;
}

export interface TranscriptServiceDeps {
  db: PrismaClient;
  /** Carries `transcript.stored` between processes, so cached versions are dropped everywhere. */
  bus: EventBus;
  log: Pick<Logger, 'warn'>;
  /** The episode anyone may read without a key. */
  sampleTranscriptId: string;
  onAccountChanged(accountId: string): Promise<void>;
}

/**
 * Reading transcripts and unlocking them. Unlocks are permanent, so a granted
 * one is cached; rendered bodies are immutable per version, so they are
 * cached by version, and versions are cached until a new one is announced.
 * A warm read touches no database.
 */
export function createTranscriptService({ db, bus, log, sampleTranscriptId, onAccountChanged }: TranscriptServiceDeps) {
  const unlocked = new LRUCache<string, true>({ max: 200_000 });
  const rendered = new LRUCache<string, RenderedTranscript>({ maxSize: RENDER_CACHE_BYTES, sizeCalculation: (r) => r.body.byteLength + 64 });
  const rendering = new Map<string, Promise<RenderedTranscript>>();
  const documents = new LRUCache<string, StoredTranscript>({ maxSize: DOCUMENT_CACHE_BYTES, sizeCalculation: documentBytes });
  const loading = new Map<string, Promise<StoredTranscript | null>>();
  const versions = createTranscriptVersions({ db, bus, log });
  const suppliers = new LRUCache<string, { accountId: string | null }>({ max: 200_000 });

  async function isUnlocked(accountId: string, transcriptId: string): Promise<boolean> {
    const key = `${accountId}:${transcriptId}`;
    if (unlocked.has(key)) return true;
    const row = await db.unlock.findUnique({ where: { accountId_transcriptId: { accountId, transcriptId } }, select: { createdAt: true } });
    if (row) unlocked.set(key, true);
    return row !== null;
  }

  async function load(transcriptId: string): Promise<StoredTranscript | null> {
    const row = await db.transcript.findUnique({
      where: { transcriptId },
      include: { episode: { select: { title: true, audioUrl: true, durationSeconds: true, showId: true } } },
    });
    if (!row) return null;
    return {
      version: row.version,
      doc: row.doc as unknown as TranscriptDoc,
      meta: {
        transcriptId,
        title: row.episode.title,
        audioUrl: shownAudioUrl(row.episode),
        language: row.language,
        source: row.source as 'publisher' | 'asr',
        engine: row.engine,
        model: row.model,
        version: row.version,
        durationSeconds: row.durationSeconds ?? row.episode.durationSeconds,
      },
      suppliedAudioUrl: row.episode.showId === REQUESTED_SHOW_ID ? row.episode.audioUrl : null,
    };
  }

  /**
   * `version` of the document, parsed once and kept while it is read (versions
   * never change once stored). Concurrent first reads load it once. A newer
   * version found in the database is kept, and answered, under its own.
   */
  async function loadVersion(transcriptId: string, version: number): Promise<StoredTranscript | null> {
    const key = `${transcriptId}:${version}`;
    const hit = documents.get(key);
    if (hit) return hit;
    return shared(loading, key, async () => {
      const stored = await load(transcriptId);
      if (stored) documents.set(`${transcriptId}:${stored.version}`, stored);
      return stored;
    });
  }

  /**
   * The account whose request brought in an episode the index does not list
   * (the first job naming it, whose URL the episode keeps); null for every
   * other episode. Never changes once known, so it is cached.
   */
  async function supplierOf(transcriptId: string): Promise<string | null> {
    const hit = suppliers.get(transcriptId);
    if (hit !== undefined) return hit.accountId;
    const [row] = await db.$queryRaw<{ account_id: string }[]>`
      SELECT j.account_id FROM job_episodes je
      JOIN jobs j ON j.id = je.job_id JOIN episodes e ON e.transcript_id = je.transcript_id
      WHERE je.transcript_id = ${transcriptId} AND e.show_id = ${REQUESTED_SHOW_ID}
      ORDER BY j.seq LIMIT 1`;
    const accountId = row?.account_id ?? null;
    suppliers.set(transcriptId, { accountId });
    return accountId;
  }

  /** Whether `actor` supplied the audio URL of this (requested) episode, and so may see it. */
  async function suppliedBy(actor: Actor | null, transcriptId: string): Promise<boolean> {
    return actor !== null && (await supplierOf(transcriptId)) === actor.accountId;
  }

  function withSuppliedAudio(stored: StoredTranscript): StoredTranscript {
    return { ...stored, meta: { ...stored.meta, audioUrl: stored.suppliedAudioUrl } };
  }

  /** Renders the stored version (which may be newer than the one asked for) and caches it under that version. */
  async function render(transcriptId: string, version: number, variant: string, format: TranscriptFormat, opts: { timestamps: boolean; words: boolean; supplied: boolean }): Promise<RenderedTranscript> {
    const loaded = await loadVersion(transcriptId, version);
    if (!loaded) throw new DomainError('not_found', `No transcript for ${transcriptId} yet.`);
    const stored = opts.supplied ? withSuppliedAudio(loaded) : loaded;
    const text = renderTranscript(stored.doc, stored.meta, format, opts);
    const out: RenderedTranscript = { body: Buffer.from(text, 'utf8'), contentType: contentTypes[format], version: stored.version, tag: `"${transcriptId}-v${stored.version}-${variant.replaceAll(':', '-')}"` };
    rendered.set(`${transcriptId}:${stored.version}:${variant}`, out);
    return out;
  }

  async function requireHeld(transcriptId: string): Promise<number> {
    const version = await versions.current(transcriptId);
    if (version === null) {
      // Only on the way to a 404: a requested episode is told apart from one nobody asked for.
      const episode = await db.episode.findUnique({ where: { transcriptId }, select: { transcriptStatus: true } });
      if (episode?.transcriptStatus === 'processing') {
        throw new DomainError('not_found', `No transcript for ${transcriptId} yet: it is being transcribed now, and readable once done. A key that requested it is told when (GET /jobs/{id}, or the job.done webhook).`);
      }
      throw new DomainError('not_found', `No transcript for ${transcriptId} yet; request one with POST /requests (GraphQL: requestTranscription).`);
    }
    return version;
  }

  /** The id and current version, once the transcript is known to be held and readable by `actor`. */
  async function checkAccess(actor: Actor | null, rawId: string): Promise<{ transcriptId: string; version: number }> {
    const transcriptId = assertTranscriptId(rawId);
    const version = await requireHeld(transcriptId);
    if (transcriptId === sampleTranscriptId) return { transcriptId, version };
    if (!actor) throw new DomainError('unauthorized', 'This transcript needs an API key.');
    if (!(await isUnlocked(actor.accountId, transcriptId))) {
      throw new DomainError('transcript_locked', `Unlock this episode first: POST /unlock (GraphQL: unlock) costs ${prices.unlock} credit once, then every format is free.`);
    }
    return { transcriptId, version };
  }

  return {
    sampleTranscriptId,

    isSample: (transcriptId: string) => transcriptId === sampleTranscriptId,

    isUnlocked,

    /**
     * The transcript in `format`. Needs an unlock by the caller's account,
     * except the public sample. `not_found` before there is a transcript,
     * `transcript_locked` (402) when the caller has not unlocked it.
     */
    async read(actor: Actor | null, rawId: string, format: TranscriptFormat, opts: { timestamps: boolean; words: boolean }): Promise<RenderedTranscript> {
      const { transcriptId, version } = await checkAccess(actor, rawId);
      const timestamps = format === 'json' && opts.timestamps;
      const words = timestamps && opts.words;
      // Only JSON carries the supplied audio address: the other formats are the same bytes for every reader.
      const supplied = format === 'json' && (await suppliedBy(actor, transcriptId));
      // `txt` is `text`; timestamps and words change JSON only: one variant (and tag) per distinct body.
      const variant = `${format === 'txt' ? 'text' : format}:${timestamps ? 1 : 0}${words ? 1 : 0}${supplied ? ':own' : ''}`;
      const key = `${transcriptId}:${version}:${variant}`;
      const hit = rendered.get(key);
      if (hit) return hit;
      // Concurrent first reads of one body load and render it once.
      return shared(rendering, key, () => render(transcriptId, version, variant, format, { timestamps, words, supplied }));
    },

    /** The stored document, under the same access rule as `read` (GraphQL's typed segments). */
    async readDocument(actor: Actor | null, rawId: string): Promise<StoredTranscript> {
      const { transcriptId, version } = await checkAccess(actor, rawId);
      const stored = await loadVersion(transcriptId, version);
      if (!stored) throw new DomainError('not_found', `No transcript for ${transcriptId} yet.`);
      return (await suppliedBy(actor, transcriptId)) ? withSuppliedAudio(stored) : stored;
    },

    /** The stored document without an access check (AI Search charges its own way). */
    document: load,

    /**
     * Unlocks an episode Podtext holds: 1 credit once per account and episode,
     * 0 after (and for the sample). Concurrent unlocks of one episode charge once.
     * `field` names the id in a refusal as the caller sent it (REST's body
     * says `transcript`). Default: `transcript_id`.
     */
    async unlock(actor: Actor, rawId: string, field = 'transcript_id'): Promise<{ transcriptId: string; charged: number; balance: number }> {
      const transcriptId = assertTranscriptId(rawId, field);
      await requireHeld(transcriptId);
      const result = await inTransaction(db, async (tx) => {
        const { charged, balanceAfter } = await unlockInTransaction(tx, actor.accountId, transcriptId, sampleTranscriptId);
        if (balanceAfter !== null) return { charged, balance: balanceAfter };
        const account = await tx.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { credits: true } });
        return { charged, balance: account.credits };
      });
      unlocked.set(`${actor.accountId}:${transcriptId}`, true);
      await onAccountChanged(actor.accountId);
      return { transcriptId, ...result };
    },

    /** What the public episode page shows before any key: title, show, audio, status. */
    /** What an episode's page shows; a requested episode's audio address only to the account that supplied it. */
    async pageInfo(rawId: string, actor: Actor | null = null) {
      const transcriptId = assertTranscriptId(rawId);
      const ep = await db.episode.findUnique({
        where: { transcriptId },
        select: { title: true, guid: true, audioUrl: true, durationSeconds: true, transcriptStatus: true, publishedAt: true, showId: true, show: { select: { title: true } } },
      });
      if (!ep) throw new DomainError('not_found', `No episode ${transcriptId}`);
      return {
        transcriptId,
        title: ep.title,
        guid: ep.guid,
        // The shared show of requested episodes cannot be browsed: nothing to link to.
        show: ep.showId === REQUESTED_SHOW_ID ? null : { id: ep.showId, title: ep.show.title },
        audioUrl: ep.showId === REQUESTED_SHOW_ID && (await suppliedBy(actor, transcriptId)) ? ep.audioUrl : shownAudioUrl(ep),
        durationSeconds: ep.durationSeconds,
        status: ep.transcriptStatus,
        publishedAt: ep.publishedAt,
        isSample: transcriptId === sampleTranscriptId,
      };
    },

    /** Call once a transcript is stored or replaced (committed): every process drops the version it cached. */
    stored: versions.stored,
  };
}

export type TranscriptService = ReturnType<typeof createTranscriptService>;
