import type { DocAlignment, Segment, Word } from '../../core/transcripts/formats/transcript-doc.js';
import { timedDocument } from '../../core/transcripts/formats/render-transcript.js';
import { type StoredTranscript, FORMATS } from '../../core/transcripts/transcript-service.js';
import { prices } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';

const TranscriptFormatEnum = builder.enumType('TranscriptFormat', { values: FORMATS.map((f) => f.toUpperCase()) as ['JSON', 'TEXT', 'TXT', 'SRT', 'VTT'] });

const WordRef = builder.objectRef<Word>('Word').implement({
  description: 'A word and its start time in seconds.',
  fields: (t) => ({
    w: t.exposeString('w'),
    s: t.exposeFloat('s'),
    removed: t.boolean({ description: 'True when the audio served now no longer has this word (s is then where it was cut out).', resolve: (w) => w.removed === true }),
  }),
});

const AdBreakRef = builder.objectRef<DocAlignment['adBreaks'][number]>('AdBreak').implement({
  description: 'A stretch of the audio served now that the transcribed audio did not have (an inserted ad), in seconds.',
  fields: (t) => ({ start: t.exposeFloat('start'), end: t.exposeFloat('end') }),
});

const RemovedStretchRef = builder.objectRef<DocAlignment['removed'][number]>('RemovedStretch').implement({
  description: 'A stretch of the transcribed audio the host no longer serves: where it was cut out, and its length in seconds.',
  fields: (t) => ({ at: t.exposeFloat('at'), seconds: t.exposeFloat('seconds') }),
});

const AlignmentRef = builder.objectRef<DocAlignment>('TranscriptAlignment').implement({
  description: 'The audio the times match once re-aligned to re-spliced audio (REST: `alignment`).',
  fields: (t) => ({
    audioSeconds: t.exposeFloat('audioSeconds'),
    checkedAt: t.exposeString('checkedAt'),
    adBreaks: t.field({ type: [AdBreakRef], resolve: (a) => a.adBreaks }),
    removed: t.field({ type: [RemovedStretchRef], resolve: (a) => a.removed }),
  }),
});

const SegmentRef = builder.objectRef<Segment>('Segment').implement({
  fields: (t) => ({
    start: t.exposeFloat('start'),
    end: t.exposeFloat('end'),
    text: t.exposeString('text'),
    speaker: t.exposeString('speaker', { nullable: true }),
    words: t.field({ type: [WordRef], resolve: (s) => s.words }),
  }),
});

export const TranscriptRef = builder.objectRef<StoredTranscript>('Transcript').implement({
  description: 'An unlocked transcript with timed segments and word timings.',
  fields: (t) => ({
    transcriptId: t.string({ resolve: (x) => x.meta.transcriptId }),
    title: t.string({ resolve: (x) => x.meta.title }),
    audioUrl: t.string({ nullable: true, description: "The episode's audio; for an episode requested by its audio URL, shown only to the account that supplied it.", resolve: (x) => x.meta.audioUrl }),
    language: t.string({ nullable: true, resolve: (x) => x.meta.language ?? x.doc.language }),
    source: t.string({ description: 'publisher or asr', resolve: (x) => x.meta.source }),
    engine: t.string({ nullable: true, resolve: (x) => x.meta.engine }),
    model: t.string({ nullable: true, resolve: (x) => x.meta.model }),
    version: t.int({ resolve: (x) => x.version }),
    wordTimesEstimated: t.boolean({ resolve: (x) => x.doc.wordTimesEstimated }),
    segments: t.field({
      type: [SegmentRef],
      description: 'Timed as REST `timestamps=1` times them: a transcript without times (a publisher\'s plain text) is laid out over the episode.',
      resolve: (x) => timedDocument(x.doc, x.meta).segments,
    }),
    alignment: t.field({ type: AlignmentRef, nullable: true, description: 'Set once the times were re-aligned to re-spliced audio.', resolve: (x) => x.doc.alignment ?? null }),
    rendered: t.string({
      description: 'The transcript as REST `GET /transcripts/{id}` renders it with the same `format`, `timestamps` and `words` (JSON as a string).',
      args: {
        format: t.arg({ type: TranscriptFormatEnum, required: true }),
        timestamps: t.arg.boolean({ defaultValue: false, description: 'JSON: add timed `segments`, as REST `timestamps=1`.' }),
        words: t.arg.boolean({ defaultValue: false, description: 'JSON with timestamps: add word start times, as REST `words=1`.' }),
      },
      // The same rendered body REST serves, from the same cache: rendered once per version and variant.
      resolve: async (x, { format, timestamps, words }, ctx) => {
        const body = await ctx.services.transcripts.read(ctx.actor, x.meta.transcriptId, format.toLowerCase() as (typeof FORMATS)[number], { timestamps: timestamps === true, words: words === true });
        return Buffer.from(body.body.buffer, body.body.byteOffset, body.body.byteLength).toString('utf8');
      },
    }),
  }),
});

const UnlockResult = builder.objectRef<{ transcriptId: string; charged: number; balance: number }>('UnlockResult').implement({
  fields: (t) => ({
    unlocked: t.exposeString('transcriptId'),
    credits: t.exposeInt('charged', { description: 'Credits this call charged (1, or 0 when already unlocked).' }),
    creditsRemaining: t.exposeInt('balance'),
    formats: t.stringList({ resolve: () => FORMATS }),
  }),
});

builder.queryFields((t) => ({
  transcript: t.field({ ...operation('getTranscript'),
    type: TranscriptRef,
    description: 'An unlocked transcript (the public sample needs no key).',
    args: { transcriptId: t.arg.string({ required: true }) },
    resolve: (_r, { transcriptId }, ctx) => ctx.services.transcripts.readDocument(ctx.actor, transcriptId),
  }),
}));

builder.mutationFields((t) => ({
  unlock: t.field({ ...operation('unlockTranscript'),
    type: UnlockResult,
    description: `Unlocks an episode Podtext holds: ${prices.unlock} credit once per account and episode, 0 after.`,
    args: { transcriptId: t.arg.string({ required: true }) },
    resolve: (_r, { transcriptId }, ctx) => ctx.services.transcripts.unlock(requireActor(ctx), transcriptId),
  }),
}));
