import { toParagraphs } from './paragraphs.js';
import { renderJson, type RenderJsonOptions, type TranscriptMeta } from './render-json.js';
import { renderSrt } from './render-srt.js';
import { renderText } from './render-text.js';
import { renderVtt } from './render-vtt.js';
import { spreadUntimed } from './spread-untimed.js';
import type { TranscriptDoc } from './transcript-doc.js';

/** The `format` values of `GET /transcripts/{id}`. */
export type TranscriptFormat = 'json' | 'text' | 'txt' | 'srt' | 'vtt';

/** The 200 `Content-Type` for each format. */
export const contentTypes: Record<TranscriptFormat, string> = {
  json: 'application/json; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

/**
 * The document as every timed reading sees it (timed JSON, SRT, VTT and
 * GraphQL's `segments`): an untimed source (plain text, HTML without
 * `<time>`) laid out over the episode's length; a timed one as it is.
 */
export function timedDocument(doc: TranscriptDoc, meta: Pick<TranscriptMeta, 'durationSeconds'>): TranscriptDoc {
  return spreadUntimed(doc, meta.durationSeconds);
}

/** Whether a string is one of the {@link TranscriptFormat} values. */
export function isTranscriptFormat(value: string): value is TranscriptFormat {
  return Object.hasOwn(contentTypes, value);
}

/**
 * Renders a transcript in the requested format, as the response body to
 * serve with `contentTypes[format]`. `options` only affect `json`.
 * Default options: no timestamps, no words.
 *
 * @example
 * const body = renderTranscript(doc, meta, 'srt');
 * return new Response(body, { headers: { 'content-type': contentTypes.srt } });
 */
export function renderTranscript(
  doc: TranscriptDoc,
  meta: TranscriptMeta,
  format: TranscriptFormat,
  options: RenderJsonOptions = { timestamps: false, words: false },
): string {
  // Text keeps an untimed source's paragraphs; every timed format gets times spread over the episode.
  switch (format) {
    case 'json':
      // Paragraphs as `text` gives them (the source's own when untimed); segments with the laid-out times.
      return JSON.stringify(renderJson(timedDocument(doc, meta), meta, options, toParagraphs(doc)));
    case 'text':
    case 'txt':
      return renderText(doc);
    case 'srt':
      return renderSrt(timedDocument(doc, meta));
    case 'vtt':
      return renderVtt(timedDocument(doc, meta));
  }
}
