import { z } from '@hono/zod-openapi';

const WordSchema = z
  .object({
    w: z.string().openapi({ description: 'The word as written.' }),
    s: z.number().openapi({ description: 'When it starts, in seconds of the audio served now.' }),
    removed: z.literal(true).optional().openapi({ description: 'The audio served now no longer has this word (cut out); `s` is where the cut is.' }),
  })
  .strict();

const SegmentSchema = z
  .object({
    start: z.number().openapi({ description: 'Seconds.' }),
    end: z.number().openapi({ description: 'Seconds.' }),
    text: z.string(),
    speaker: z.string().optional().openapi({ description: 'Omitted when unknown.' }),
    words: z.array(WordSchema).optional().openapi({ description: 'With `timestamps=1&words=1`.' }),
  })
  .strict();

const AlignmentSchema = z
  .object({
    audio_seconds: z.number().openapi({ description: 'Length of the audio the times match.' }),
    checked_at: z.string().openapi({ format: 'date-time', description: 'When that audio was last compared.' }),
    ad_breaks: z.array(z.object({ start: z.number(), end: z.number() }).strict()).openapi({ description: 'Stretches of that audio the transcript does not cover (inserted ads), in seconds.' }),
    removed: z.array(z.object({ at: z.number(), seconds: z.number() }).strict()).openapi({ description: 'Where transcribed audio was cut out, and how much.' }),
  })
  .strict();

/** The body of `GET /transcripts/{id}` as JSON (`renderJson`); a test checks the two agree. */
export const TranscriptJsonSchema = z
  .object({
    transcript_id: z.string(),
    title: z.string(),
    audio_url: z.string().nullable(),
    language: z.string().nullable(),
    source: z.enum(['publisher', 'asr']).openapi({ description: "`publisher`: the show's own transcript; `asr`: transcribed by Podtext." }),
    engine: z.string().nullable(),
    model: z.string().nullable(),
    version: z.number().int().openapi({ description: 'Rises whenever the words, times or metadata change; the ETag follows it.' }),
    duration_seconds: z.number().nullable(),
    word_times_estimated: z.boolean().openapi({ description: 'True when word times were spread over their segment, not measured.' }),
    text: z.string().openapi({ description: 'The whole transcript: paragraph texts (without speaker labels) joined by blank lines.' }),
    paragraphs: z.array(z.object({ speaker: z.string().nullable(), text: z.string() }).strict()).openapi({ description: 'Speaker turns.' }),
    segments: z.array(SegmentSchema).optional().openapi({ description: 'With `timestamps=1`.' }),
    alignment: AlignmentSchema.optional().openapi({ description: 'Present once the times follow re-spliced audio (dynamically inserted ads).' }),
  })
  .strict()
  .openapi('TranscriptJson');
