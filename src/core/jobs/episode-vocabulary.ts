import { showVocabulary } from '../catalog/show-vocabulary.js';
import type { Tx } from '../transaction.js';
import type { TranscriptDoc } from '../transcripts/formats/transcript-doc.js';
import { REQUESTED_SHOW_ID } from './resolve-episodes.js';

/** Episodes of the show read for names: the newest ones say who is on it now. */
const EPISODES_READ = 50;
/** Publisher transcripts of earlier episodes read, newest first. */
const TRANSCRIPTS_READ = 3;
/** Characters of each transcript read: names recur early (introductions). */
const TRANSCRIPT_CHARS = 20_000;

type EpisodeRow = { show_id: bigint; title: string; description: string | null; persons: unknown };

/**
 * The vocabulary an episode is recognised with: `showVocabulary` of its
 * show's feed (title, author, `podcast:person`, newest episodes' titles and
 * notes, publisher transcripts of earlier episodes). An episode requested by
 * URL alone sits under the shared "Requested episodes" show, whose other
 * episodes belong to other shows: only its own title and notes count.
 */
export async function episodeVocabulary(db: Tx, transcriptId: string): Promise<string[]> {
  const own = await db.$queryRaw<EpisodeRow[]>`
    SELECT show_id, title, description, persons FROM episodes WHERE transcript_id = ${transcriptId}`;
  const episode = own[0];
  if (!episode) return [];
  if (episode.show_id === REQUESTED_SHOW_ID) {
    return showVocabulary({ show: { title: '', author: null }, episodes: [toSource(episode)] });
  }
  const [show] = await db.$queryRaw<{ title: string; author: string }[]>`SELECT title, author FROM shows WHERE id = ${episode.show_id}`;
  const episodes = await db.$queryRaw<EpisodeRow[]>`
    SELECT show_id, title, description, persons FROM episodes WHERE show_id = ${episode.show_id}
    ORDER BY (transcript_id = ${transcriptId}) DESC, published_at DESC NULLS LAST LIMIT ${EPISODES_READ}`;
  const transcripts = await db.$queryRaw<{ doc: TranscriptDoc }[]>`
    SELECT t.doc FROM transcripts t JOIN episodes e ON e.transcript_id = t.transcript_id
    WHERE e.show_id = ${episode.show_id} AND t.source = 'publisher' AND t.transcript_id <> ${transcriptId}
    ORDER BY e.published_at DESC NULLS LAST LIMIT ${TRANSCRIPTS_READ}`;
  return showVocabulary({
    show: { title: show?.title ?? '', author: show?.author || null },
    episodes: episodes.map(toSource),
    transcripts: transcripts.map((t) => docText(t.doc)),
  });
}

function toSource(e: EpisodeRow) {
  const persons = Array.isArray(e.persons) ? e.persons.filter((p): p is { name: string } => typeof p?.name === 'string') : [];
  // Show notes are often HTML: tags would hide the capitals of the names next to them.
  return { title: e.title, description: e.description?.replace(/<[^>]*>/g, ' ') ?? null, persons };
}

function docText(doc: TranscriptDoc): string {
  let text = '';
  for (const s of doc?.segments ?? []) {
    if (text.length >= TRANSCRIPT_CHARS) break;
    text += `${s.text}\n`;
  }
  return text.slice(0, TRANSCRIPT_CHARS);
}
