import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { prices } from '../../core/pricing.js';
import type { TranscriptFormat } from '../../core/transcripts/formats/render-transcript.js';
import { FORMATS } from '../../core/transcripts/transcript-service.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok, rateLimitHeaders } from '../schemas/common.js';
import { TRANSCRIPT_ID_PATTERN } from '../../core/transcript-id.js';
import { TranscriptJsonSchema } from '../schemas/transcript.js';

const etagHeader = { description: 'Names this body: the same for every request that gets the same bytes (`txt` and `text`, options a format ignores), new with each version.', schema: { type: 'string' as const } };

const readRoute = createRoute({
  method: 'get',
  path: '/transcripts/{transcript_id}',
  operationId: 'getTranscript',
  tags: ['Transcripts'],
  summary: 'An unlocked transcript as JSON, text, SRT or VTT',
  description: [
    'Needs an unlock by the calling key, except the public sample episode, which needs no key.',
    'Plain JSON (no `timestamps`): `{transcript_id, title, audio_url, language, source ("publisher" or "asr"), engine, model, version, duration_seconds, word_times_estimated, text, paragraphs: [{speaker, text}]}`.',
    '`audio_url` is the episode\'s audio. For an episode the index does not list (requested by its audio URL), it is shown only to the account whose request supplied that URL (it may carry that account\'s private token); to everyone else it is `null`.',
    '`timestamps=1` adds `segments: [{start, end, text, speaker?}]`; `words=1` adds `words: [{w, s}]` to each segment. `word_times_estimated` is true when the source only had segment times.',
    'Times follow the audio the host serves now: when a host re-splices an episode (dynamically inserted ads), Podtext re-aligns the transcript to it and adds `alignment: {audio_seconds, checked_at, ad_breaks: [{start, end}], removed: [{at, seconds}]}` (the audio the times match, its inserted stretches, and stretches of the transcribed audio no longer served); words in a removed stretch carry `removed: true` and the time of the cut.',
    'SRT and VTT follow the audio as it plays now: words cut out of it are left out, and no cue spans an inserted ad. A transcript without times (a publisher\'s plain text) is laid out over the episode\'s length in these formats and in timed JSON (`word_times_estimated: true`).',
    'SRT cues carry `Speaker:` prefixes and VTT cues `<v Speaker>` voice tags when speakers are known.',
    'Send the `ETag` back in `If-None-Match` to get 304 with no body while the answer is unchanged.',
    '`version` (also in the `ETag`) goes up whenever the answer changes: new words (a new transcription or publisher file), times re-aligned to re-spliced audio, or a new title, audio URL or duration in the episode\'s feed.',
  ].join('\n\n'),
  security: [...keyed, {}],
  request: {
    params: z.object({ transcript_id: z.string().openapi({ pattern: TRANSCRIPT_ID_PATTERN, example: '97ab7f764b594d58' }) }),
    query: z.object({
      format: z.enum(FORMATS as [string, ...string[]]).default('json'),
      timestamps: z.enum(['0', '1']).optional().openapi({ description: '`1`: with format=json, timed segments.' }),
      words: z.enum(['0', '1']).optional().openapi({ description: '`1`: with format=json&timestamps=1, word start times.' }),
    }),
  },
  responses: {
    200: {
      description: 'The transcript; content type by format: application/json, text/plain, application/x-subrip, text/vtt.',
      headers: { ...rateLimitHeaders, ETag: etagHeader },
      content: {
        'application/json': { schema: TranscriptJsonSchema },
        'text/plain': { schema: z.string() },
        'application/x-subrip': { schema: z.string() },
        'text/vtt': { schema: z.string() },
      },
    },
    304: { description: "Not modified: `If-None-Match` named this representation's `ETag`. No body; still counted as a call.", headers: { ...rateLimitHeaders, ETag: etagHeader } },
    ...errors({ ...keyedErrors, 402: `Locked: unlock it first (${prices.unlock} credit).`, 404: 'No transcript yet.' }),
  },
});

const unlockRoute = createRoute({
  method: 'post',
  path: '/unlock',
  operationId: 'unlockTranscript',
  tags: ['Transcripts'],
  summary: `Unlock an episode Podtext holds (${prices.unlock} credit once; 0 if already unlocked)`,
  description: 'Unlocking is permanent, survives key rotation and covers every format. `credits` is what this call charged (1, or 0 when the key already had it); `credits_remaining` is the balance after.',
  security: keyed,
 
  request: { body: { required: true, content: { 'application/json': { schema: z.object({ transcript: z.string().openapi({ pattern: TRANSCRIPT_ID_PATTERN }) }).strict() } } } },
  responses: {
    200: ok(z.object({ unlocked: z.string(), credits: z.number().int(), credits_remaining: z.number().int(), formats: z.array(z.string()) }), 'Unlocked'),
    ...errors({ ...keyedErrors, 402: 'Insufficient credits.', 404: 'No transcript yet.' }),
  },
});

/** Whether an `If-None-Match` header names `etag` (weak comparison, `*` included). */
function namesTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}

export function registerTranscriptRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(readRoute, async (c) => {
    const { transcript_id } = c.req.valid('param');
    const q = c.req.valid('query');
    const format = q.format as TranscriptFormat;
    const options = { timestamps: q.timestamps === '1', words: q.words === '1' };
    const out = await c.get('services').transcripts.read(c.get('admission').actor, transcript_id, format, options);
    // One tag per distinct body (see RenderedTranscript.tag).
    const etag = out.tag;
    // Checked after the read, so a 304 is only ever given to a caller allowed the transcript.
    if (namesTag(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers: { etag } }) as never;
    // A plain header object: answered as is, with no Fetch Headers built for the response.
    return new Response(out.body, { status: 200, headers: { 'content-type': out.contentType, etag } }) as never;
  });
  api.openapi(unlockRoute, async (c) => {
    const { transcript } = c.req.valid('json');
    const r = await c.get('services').transcripts.unlock(c.get('actor'), transcript, 'transcript');
    return c.json({ unlocked: r.transcriptId, credits: r.charged, credits_remaining: r.balance, formats: FORMATS }, 200);
  });
}
