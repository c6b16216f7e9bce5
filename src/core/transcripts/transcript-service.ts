import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Actor } from '../accounts/actor.js';
import { DomainError } from '../errors.js';
import * as ledger from '../ledger.js';
import { prices } from '../pricing.js';
import { inTransaction } from '../transaction.js';
import { type TranscriptFormat, contentTypes, renderTranscript } from './formats/render-transcript.js';
import type { TranscriptDoc } from './formats/transcript-doc.js';
import { assertTranscriptId } from './transcript-id.js';

/** Every format an unlock covers. */
export const FORMATS: TranscriptFormat[] = ['json', 'text', 'txt', 'srt', 'vtt'];

/** Bytes of rendered bodies kept in memory. Default: 64 MB. */
const RENDER_CACHE_BYTES = 64 * 1024 * 1024;

export interface RenderedTranscript {
  body: string;
  contentType: string;
  version: number;
}

export interface StoredTranscript {
  version: number;
  doc: TranscriptDoc;
  meta: Parameters<typeof renderTranscript>[1];
}

export interface TranscriptServiceDeps {
  db: PrismaClient;
  /** The episode anyone may read without a key. */
  sampleTranscriptId: string;
  onAccountChanged(accountId: string): Promise<void>;
}

/**
 * Reading transcripts and unlocking them. Unlocks are permanent and rendered
 * bodies immutable per version, so both are cached; a warm read touches no
 * database except to learn the current version.
 */
export function createTranscriptService({ db, sampleTranscriptId, onAccountChanged }: TranscriptServiceDeps) {
  const unlocked = new LRUCache<string, true>({ max: 200_000 });
  const rendered = new LRUCache<string, RenderedTranscript>({ maxSize: RENDER_CACHE_BYTES, sizeCalculation: (r) => r.body.length * 2 + 64 });
  const versions = new LRUCache<string, number>({ max: 100_000, ttl: 5_000 });

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
      include: { episode: { select: { title: true, audioUrl: true, durationSeconds: true } } },
    });
    if (!row) return null;
    return {
      version: row.version,
      doc: row.doc as unknown as TranscriptDoc,
      meta: {
        transcriptId,
        title: row.episode.title,
        audioUrl: row.episode.audioUrl,
        language: row.language,
        source: row.source as 'publisher' | 'asr',
        engine: row.engine,
        model: row.model,
        version: row.version,
        durationSeconds: row.durationSeconds ?? row.episode.durationSeconds,
      },
    };
  }

  async function currentVersion(transcriptId: string): Promise<number | null> {
    const hit = versions.get(transcriptId);
    if (hit !== undefined) return hit;
    const row = await db.transcript.findUnique({ where: { transcriptId }, select: { version: true } });
    if (row) versions.set(transcriptId, row.version);
    return row?.version ?? null;
  }

  async function requireHeld(transcriptId: string): Promise<void> {
    if ((await currentVersion(transcriptId)) === null) {
      throw new DomainError('not_found', `No transcript for ${transcriptId} yet; request one with POST /requests.`);
    }
  }

  /** The id, once it is known to be held and readable by `actor`. */
  async function checkAccess(actor: Actor | null, rawId: string): Promise<string> {
    const transcriptId = assertTranscriptId(rawId);
    await requireHeld(transcriptId);
    if (transcriptId === sampleTranscriptId) return transcriptId;
    if (!actor) throw new DomainError('unauthorized', 'This transcript needs an API key.');
    if (!(await isUnlocked(actor.accountId, transcriptId))) {
      throw new DomainError('transcript_locked', `Unlock this episode first: POST /unlock costs ${prices.unlock} credit once, then every format is free.`);
    }
    return transcriptId;
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
      const transcriptId = await checkAccess(actor, rawId);
      const version = (await currentVersion(transcriptId))!;
      const words = format === 'json' && opts.timestamps && opts.words;
      const timestamps = format === 'json' && opts.timestamps;
      const cacheKey = `${transcriptId}:${version}:${format}:${timestamps ? 1 : 0}${words ? 1 : 0}`;
      const hit = rendered.get(cacheKey);
      if (hit) return hit;
      const stored = await load(transcriptId);
      if (!stored) throw new DomainError('not_found', `No transcript for ${transcriptId} yet.`);
      const out = { body: renderTranscript(stored.doc, stored.meta, format, { timestamps, words }), contentType: contentTypes[format], version: stored.version };
      rendered.set(`${transcriptId}:${stored.version}:${format}:${timestamps ? 1 : 0}${words ? 1 : 0}`, out);
      return out;
    },

    /** The stored document, under the same access rule as `read` (GraphQL's typed segments). */
    async readDocument(actor: Actor | null, rawId: string): Promise<StoredTranscript> {
      const transcriptId = await checkAccess(actor, rawId);
      const stored = await load(transcriptId);
      if (!stored) throw new DomainError('not_found', `No transcript for ${transcriptId} yet.`);
      return stored;
    },

    /** The stored document without an access check (AI Search charges its own way). */
    document: load,

    /**
     * Unlocks an episode Podtext holds: 1 credit once per account and episode,
     * 0 after (and for the sample). Concurrent unlocks of one episode charge once.
     */
    async unlock(actor: Actor, rawId: string): Promise<{ transcriptId: string; charged: number; balance: number }> {
      const transcriptId = assertTranscriptId(rawId, 'transcript');
      await requireHeld(transcriptId);
      const result = await inTransaction(db, async (tx) => {
        const inserted = await tx.$queryRaw<{ transcript_id: string }[]>`
          INSERT INTO unlocks (account_id, transcript_id) VALUES (${actor.accountId}::uuid, ${transcriptId})
          ON CONFLICT DO NOTHING RETURNING transcript_id`;
        if (inserted.length === 0 || transcriptId === sampleTranscriptId) {
          const account = await tx.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { credits: true } });
          return { charged: 0, balance: account.credits };
        }
        const { entry } = await ledger.charge(tx, actor.accountId, prices.unlock, `unlock:${actor.accountId}:${transcriptId}`, `Unlock ${transcriptId}`);
        await tx.unlock.update({ where: { accountId_transcriptId: { accountId: actor.accountId, transcriptId } }, data: { ledgerId: entry.id } });
        return { charged: prices.unlock, balance: entry.balanceAfter };
      });
      unlocked.set(`${actor.accountId}:${transcriptId}`, true);
      await onAccountChanged(actor.accountId);
      return { transcriptId, ...result };
    },

    /** What the public episode page shows before any key: title, show, audio, status. */
    async pageInfo(rawId: string) {
      const transcriptId = assertTranscriptId(rawId);
      const ep = await db.episode.findUnique({
        where: { transcriptId },
        select: { title: true, audioUrl: true, transcriptStatus: true, publishedAt: true, show: { select: { title: true } } },
      });
      if (!ep) throw new DomainError('not_found', `No episode ${transcriptId}`);
      return { transcriptId, title: ep.title, showTitle: ep.show.title, audioUrl: ep.audioUrl, status: ep.transcriptStatus, publishedAt: ep.publishedAt, isSample: transcriptId === sampleTranscriptId };
    },

    /** Drops cached versions after a transcript is stored or replaced. */
    forget(transcriptId: string): void {
      versions.delete(transcriptId);
    },
  };
}

export type TranscriptService = ReturnType<typeof createTranscriptService>;
