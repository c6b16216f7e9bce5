import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { TranscriptFormat } from '../../core/transcripts/formats/render-transcript.js';
import type { RestEnv } from '../env.js';
import { admit, rateLimitHeaders } from '../middleware/admit.js';

export interface TranscriptRead {
  transcriptId: string;
  format: TranscriptFormat;
  timestamps: boolean;
  words: boolean;
}

// The handlers below answer with their own plain headers.
const keyed = admit(true, { handlerSetsHeaders: true });
const keyless = admit(false, { handlerSetsHeaders: true });

/** The public sample needs no key and counts 0; every other transcript is a keyed call. */
export const admitTranscript: MiddlewareHandler<RestEnv> = (c, next) =>
  c.get('services').transcripts.isSample(c.req.param('transcript_id') ?? '') ? keyless(c, next) : keyed(c, next);

/**
 * Reads the transcript for the admitted caller. Cached bytes and a plain
 * header object: @hono/node-server writes such a Response straight to the
 * socket, with no `Headers` object and no re-encoding of the text.
 */
export async function answerRead(c: Context<RestEnv>, read: TranscriptRead): Promise<Response> {
  const out = await c.get('services').transcripts.read(c.get('optionalActor') ?? null, read.transcriptId, read.format, read);
  return new Response(out.body, {
    status: 200,
    headers: { 'content-type': out.contentType, etag: `"${read.transcriptId}-v${out.version}-${read.format}"`, ...rateLimitHeaders(c.get('meter')) },
  });
}

const PLAIN_PATH = /^\/api\/v1\/transcripts\/([0-9a-f]{16})(?:\?([^#%+]*))?$/;
const PLAIN_PARAM = /^(?:format=(json|text|txt|srt|vtt)|timestamps=([01])|words=([01]))$/;

/**
 * The read a URL asks for, when it has the shape clients send: a 16-hex id
 * and nothing in the query but `format`, `timestamps` and `words`, each once,
 * with a valid value and no escapes. Null for anything else.
 *
 * @example plainTranscriptRead('http://h/api/v1/transcripts/97ab7f764b594d58?format=srt')?.format // 'srt'
 */
export function plainTranscriptRead(url: string): TranscriptRead | null {
  const m = PLAIN_PATH.exec(url.slice(url.indexOf('/', url.indexOf('//') + 2)));
  if (!m) return null;
  let format: string | undefined;
  let timestamps: string | undefined;
  let words: string | undefined;
  for (const part of m[2] ? m[2].split('&') : []) {
    const p = PLAIN_PARAM.exec(part);
    if (!p) return null;
    if (p[1] !== undefined) {
      if (format !== undefined) return null;
      format = p[1];
    } else if (p[2] !== undefined) {
      if (timestamps !== undefined) return null;
      timestamps = p[2];
    } else {
      if (words !== undefined) return null;
      words = p[3];
    }
  }
  return { transcriptId: m[1]!, format: (format ?? 'json') as TranscriptFormat, timestamps: timestamps === '1', words: words === '1' };
}

/**
 * A warm transcript read is the hottest keyed call and its bodies are the
 * largest, so requests of the plain shape ({@link plainTranscriptRead}) are
 * answered here, ahead of the body limit, input guard and validators, which
 * have nothing to check in them: about half the CPU per request. Anything
 * else falls through to the documented route in `transcripts.ts`, which
 * admits, validates and answers the same way. Register after the middleware
 * that sets `services` and before the rest.
 */
export function registerPlainTranscriptRead(app: Hono<RestEnv>): void {
  app.get('/api/v1/transcripts/:transcript_id', async (c, next) => {
    const read = plainTranscriptRead(c.req.url);
    if (!read) return next();
    await admitTranscript(c, async () => {
      c.res = await answerRead(c, read);
    });
    return c.res;
  });
}
