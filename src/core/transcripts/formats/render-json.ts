import { type Paragraph, toParagraphs } from './paragraphs.js';
import type { DocAlignment, TranscriptDoc, Word } from './transcript-doc.js';

/** What the service knows about a transcript besides its content. */
export interface TranscriptMeta {
  transcriptId: string;
  title: string;
  audioUrl: string | null;
  /** Used when set; otherwise the language the document itself states. */
  language: string | null;
  source: 'publisher' | 'asr';
  engine: string | null;
  model: string | null;
  version: number;
  durationSeconds: number | null;
}

export interface RenderJsonOptions {
  /** Add timed `segments`. */
  timestamps: boolean;
  /** With `timestamps`, add each segment's `words`; ignored without it. */
  words: boolean;
}

/** A timed segment in the JSON body; `speaker` only when known. */
export interface TranscriptJsonSegment {
  start: number;
  end: number;
  text: string;
  speaker?: string;
  words?: Word[];
}

/** The body of `GET /transcripts/{id}?format=json`. */
export interface TranscriptJson {
  transcript_id: string;
  title: string;
  audio_url: string | null;
  language: string | null;
  source: 'publisher' | 'asr';
  engine: string | null;
  model: string | null;
  version: number;
  duration_seconds: number | null;
  word_times_estimated: boolean;
  /** The whole transcript: paragraph texts (without speaker labels) joined by blank lines. */
  text: string;
  paragraphs: { speaker: string | null; text: string }[];
  segments?: TranscriptJsonSegment[];
  /** Present once the times follow re-spliced audio (dynamically inserted ads): which audio they match. */
  alignment?: TranscriptJsonAlignment;
}

/** `alignment` in the JSON body: the audio the times match, and what was spliced in or out. */
export interface TranscriptJsonAlignment {
  audio_seconds: number;
  checked_at: string;
  ad_breaks: { start: number; end: number }[];
  removed: { at: number; seconds: number }[];
}

/**
 * Builds the JSON body for a transcript. The plain shape (no options) is
 *
 * ```json
 * { "transcript_id": "…", "title": "…", "audio_url": "…" | null,
 *   "language": "en" | null, "source": "publisher" | "asr",
 *   "engine": … | null, "model": … | null, "version": 1,
 *   "duration_seconds": 1234.5 | null, "word_times_estimated": false,
 *   "text": "First paragraph.\n\nSecond paragraph.",
 *   "paragraphs": [{ "speaker": "Sarah" | null, "text": "First paragraph." }, …] }
 * ```
 *
 * where paragraphs are speaker turns (see `toParagraphs`) and `text` is their
 * texts joined by blank lines, without speaker labels. `timestamps` adds
 * `segments: [{start, end, text, speaker?}]` (speaker omitted when unknown);
 * `words` as well adds `words: [{w, s}]` to each segment (with `removed: true`
 * on words the audio served now no longer has). A transcript re-timed to
 * follow re-spliced audio adds `alignment: {audio_seconds, checked_at,
 * ad_breaks: [{start, end}], removed: [{at, seconds}]}`.
 *
 * `paragraphs` default to those of `doc`; a document whose times were laid out
 * for it passes its source's (an untimed source keeps its own paragraphs).
 *
 * @example renderJson(doc, meta, { timestamps: true, words: false }).segments?.[0].start
 */
export function renderJson(doc: TranscriptDoc, meta: TranscriptMeta, options: RenderJsonOptions, paragraphs: Paragraph[] = toParagraphs(doc)): TranscriptJson {
  const body: TranscriptJson = {
    transcript_id: meta.transcriptId,
    title: meta.title,
    audio_url: meta.audioUrl,
    language: meta.language ?? doc.language,
    source: meta.source,
    engine: meta.engine,
    model: meta.model,
    version: meta.version,
    duration_seconds: meta.durationSeconds,
    word_times_estimated: doc.wordTimesEstimated,
    text: paragraphs.map((p) => p.text).join('\n\n'),
    paragraphs,
  };
  if (options.timestamps) {
    body.segments = doc.segments.map((seg) => {
      const out: TranscriptJsonSegment = { start: seg.start, end: seg.end, text: seg.text };
      if (seg.speaker !== null) out.speaker = seg.speaker;
      if (options.words) out.words = seg.words.map((w) => (w.removed ? { w: w.w, s: w.s, removed: true } : { w: w.w, s: w.s }));
      return out;
    });
  }
  if (doc.alignment) body.alignment = renderAlignment(doc.alignment);
  return body;
}

export function renderAlignment(a: DocAlignment): TranscriptJsonAlignment {
  return { audio_seconds: a.audioSeconds, checked_at: a.checkedAt, ad_breaks: a.adBreaks.map((b) => ({ start: b.start, end: b.end })), removed: a.removed.map((r) => ({ at: r.at, seconds: r.seconds })) };
}
