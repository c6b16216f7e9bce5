import { transcriptIdFor } from '../transcript-id.js';
import type { Tx } from '../transaction.js';
import type { CheckedItem } from './request-input.js';

/**
 * The shared show that holds episodes requested by URL that the index does not
 * know. Its id sits just below the sample show's, outside both the Podcast
 * Index range and the 10^12 range Podtext gives feeds it adds itself.
 * Sharing one show (rather than one per account) keeps "one episode, one
 * transcript" true across accounts: the episode id is the guid's, whoever asks.
 */
export const REQUESTED_SHOW_ID = 999_999_999_998n;
export const REQUESTED_SHOW_TITLE = 'Requested episodes';

/** One requested episode as Podtext knows it (or will, once the request commits). */
export interface ResolvedEpisode {
  /** Position in the request, first occurrence of its guid. */
  position: number;
  transcriptId: string;
  guid: string;
  title: string;
  /** The audio transcribed: the index's own URL when it has one (a client cannot
   * redirect a shared transcript to other audio), else the one in the request. */
  audioUrl: string;
  /** `secs` from the request, else the index's duration, else null. */
  durationSeconds: number | null;
  status: 'none' | 'processing' | 'ready';
  /** False when the episode is created by this request under {@link REQUESTED_SHOW_ID}. */
  known: boolean;
  publishedAt: Date | null;
}

/**
 * Finds each requested episode by transcript_id = sha1(guid)[0..16]. A guid
 * named twice counts once.
 */
export async function resolveEpisodes(db: Tx, items: readonly CheckedItem[]): Promise<ResolvedEpisode[]> {
  const byId = new Map<string, { item: CheckedItem; position: number }>();
  items.forEach((item, position) => {
    const id = transcriptIdFor(item.guid);
    if (!byId.has(id)) byId.set(id, { item, position });
  });
  const rows = await db.episode.findMany({
    where: { transcriptId: { in: [...byId.keys()] } },
    select: { transcriptId: true, title: true, audioUrl: true, durationSeconds: true, transcriptStatus: true, publishedAt: true },
  });
  const known = new Map(rows.map((r) => [r.transcriptId, r]));
  return [...byId.entries()].map(([transcriptId, { item, position }]) => {
    const row = known.get(transcriptId);
    return {
      position,
      transcriptId,
      guid: item.guid,
      title: row?.title || item.title || item.guid,
      audioUrl: row?.audioUrl || item.url,
      durationSeconds: item.secs ?? row?.durationSeconds ?? null,
      status: (row?.transcriptStatus as ResolvedEpisode['status'] | undefined) ?? 'none',
      known: row !== undefined,
      publishedAt: row?.publishedAt ?? item.date,
    };
  });
}

/**
 * Adds the episodes the index does not know to the shared requested show, in
 * the caller's transaction. Concurrent requests for the same new guid both
 * succeed: the second insert does nothing.
 */
export async function addRequestedEpisodes(tx: Tx, episodes: readonly ResolvedEpisode[]): Promise<void> {
  const unknown = episodes.filter((e) => !e.known);
  if (unknown.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO shows (id, title, author, description, indexed, source, search_name, search_compact)
    VALUES (${REQUESTED_SHOW_ID}, ${REQUESTED_SHOW_TITLE}, 'Podtext users',
      'Episodes transcribed on request from an audio URL the index does not list.', false, 'requested', '', '')
    ON CONFLICT (id) DO NOTHING`;
  for (const e of unknown) {
    await tx.$executeRaw`
      INSERT INTO episodes (transcript_id, show_id, guid, title, published_at, duration_seconds, audio_url)
      VALUES (${e.transcriptId}, ${REQUESTED_SHOW_ID}, ${e.guid}, ${e.title}, ${e.publishedAt}, ${e.durationSeconds}, ${e.audioUrl})
      ON CONFLICT (transcript_id) DO NOTHING`;
  }
}
