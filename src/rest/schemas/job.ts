import { z } from '@hono/zod-openapi';
import type { RequestResult } from '../../core/jobs/create-request.js';
import type { JobView } from '../../core/jobs/job-view.js';
import { MAX_EPISODES_PER_REQUEST } from '../../core/jobs/request-input.js';
import { prices } from '../../core/pricing.js';

export const JobEpisodeSchema = z
  .object({
    transcript_id: z.string().openapi({ pattern: '^[0-9a-f]{16}$' }),
    title: z.string(),
    status: z.enum(['queued', 'ready', 'failed']).openapi({
      description: '`queued` until settled, then `ready`, or `failed` when the audio could not be fetched or transcribed after bounded retries (its credits are refunded and the job still completes). `failed` is an addition to the spec\'s two values.',
    }),
    url: z.string().nullable().openapi({ description: 'Episode page URL, once ready.' }),
    transcript_url: z.string().nullable().openapi({ description: 'GET it with the key, once ready.' }),
    charged: z.number().int().openapi({ description: 'Credits charged for this episode (0 when this key already paid for it in another unfinished job).' }),
    error: z.string().nullable().openapi({ description: 'Why it failed; null otherwise.' }),
  })
  .openapi('JobEpisode');

export const JobSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    status: z.enum(['queued', 'processing', 'done']),
    fast: z.boolean(),
    promise_seconds: z.number().int().nullable().openapi({ description: 'Fast lane, while running: seconds from creation by which the job is promised; later, the premium is refunded automatically.' }),
    estimated_ready_at: z.string().nullable().openapi({ format: 'date-time', description: 'From the live queue and the measured throughput of each lane; null once done.' }),
    estimated_seconds: z.number().int().openapi({ description: 'Seconds from now until every episode is expected ready; 0 once done.' }),
    queue_ahead_episodes: z.number().int().openapi({ description: "Other jobs' episodes ahead of this job's first one." }),
    poll_after_seconds: z.number().int().nullable().openapi({ description: 'A quarter of the remaining estimate, between 30 and 300; null once done.' }),
    poll_url: z.string(),
    webhook_url: z.string().nullable(),
    done: z.number().int().openapi({ description: 'Episodes settled (ready or failed).' }),
    total: z.number().int(),
    episodes: z.array(JobEpisodeSchema),
    created_at: z.string().openapi({ format: 'date-time' }),
    finished_at: z.string().nullable().openapi({ format: 'date-time' }),
    credits_refunded: z.number().int().openapi({ description: 'Credits given back so far: failed episodes, and the fast-lane premium when late or run on the standard lane.' }),
  })
  .openapi('Job');

const AlreadyTranscribedSchema = z
  .object({
    transcript_id: z.string(),
    title: z.string(),
    charged: z.number().int().openapi({ description: `${prices.unlock}, or 0 when this key had already unlocked it.` }),
    url: z.string().openapi({ description: 'Episode page URL.' }),
    transcript_url: z.string(),
  })
  .openapi('AlreadyTranscribed');

const QuotedEpisodeSchema = z
  .object({
    transcript_id: z.string(),
    title: z.string(),
    status: z.enum(['ready', 'queued']).openapi({ description: '`ready`: already in the library (unlocked); `queued`: to transcribe.' }),
    charged: z.number().int().openapi({ description: 'Credits for this episode (charged, or on a dry run, that would be).' }),
  })
  .openapi('QuotedEpisode');

export const RequestResultSchema = z
  .object({
    request_id: z.string().nullable().openapi({ description: 'The job id when a job exists; null when nothing was queued and on a dry run.' }),
    job: JobSchema.nullable().openapi({ description: 'The job of the queued episodes; null when nothing was queued and on a dry run.' }),
    already_transcribed: z.array(AlreadyTranscribedSchema),
    queued: z.number().int(),
    credits_charged: z.number().int().openapi({ description: '0 on a dry run.' }),
    credits_remaining: z.number().int(),
    delivery: z.string().openapi({ description: 'What happens next, in a sentence.' }),
    notify: z.string().openapi({ description: 'Address that is emailed on completion.' }),
    dry_run: z.boolean(),
    credits_required: z.number().int().openapi({ description: 'What the request costs (dry run: would cost).' }),
    sufficient: z.boolean().openapi({ description: 'Whether the balance covers credits_required (dry run; always true otherwise).' }),
    fast: z.boolean(),
    fast_lane_available: z.boolean().openapi({ description: 'Whether this Podtext has a fast lane (a GPU engine); without one `fast: true` is answered 400 `fast_lane_unavailable`. A dry run tells before anything is charged.' }),
    promise_seconds: z.number().int().nullable().openapi({ description: 'Fast lane: the promise, at least 300 s, longer for big batches.' }),
    estimated_seconds: z.number().int(),
    estimated_ready_at: z.string().nullable().openapi({ format: 'date-time' }),
    queue_ahead_episodes: z.number().int(),
    episodes: z.array(QuotedEpisodeSchema).openapi({ description: 'Every requested episode (a guid named twice counts once) with its charge.' }),
  })
  .openapi('TranscriptionRequestResult');

const RequestItemSchema = z.object({
  guid: z.string().openapi({ description: 'The episode guid; transcript_id is the first 16 hex of its SHA-1.' }),
  url: z.string().openapi({ description: 'The audio_url from the episode list. For an episode the index knows, its own audio URL is used.' }),
  title: z.string().nullish(),
  date: z.string().nullish().openapi({ description: 'Publication date, ISO 8601 or RFC 2822.' }),
  secs: z.number().int().min(0).nullish().openapi({ description: 'Duration in seconds; sets the price. Audio longer than the hours paid for fails and is refunded.' }),
});

export const RequestBodySchema = z.object({
  episodes: z.array(RequestItemSchema).max(MAX_EPISODES_PER_REQUEST, `at most ${MAX_EPISODES_PER_REQUEST} episodes per request`),
  email: z.string().nullish().openapi({ format: 'email', description: "Defaults to the account's address." }),
  webhook_url: z.string().nullish().openapi({ format: 'uri', description: 'https only; receives the signed job.done event.' }),
  dry_run: z.boolean().nullish().openapi({ description: 'Quote only: nothing is charged, unlocked, stored or queued.' }),
  fast: z.boolean().nullish().openapi({ description: `Fast lane: ${prices.fastTranscribePerHour} credits per hour, promised within promise_seconds. Only where a fast lane is configured (\`fast_lane_available\` on a dry run); otherwise 400 \`fast_lane_unavailable\`, nothing charged.` }),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function jobWire(v: JobView) {
  return {
    id: v.id,
    status: v.status,
    fast: v.fast,
    promise_seconds: v.promiseSeconds,
    estimated_ready_at: iso(v.estimatedReadyAt),
    estimated_seconds: v.estimatedSeconds,
    queue_ahead_episodes: v.queueAheadEpisodes,
    poll_after_seconds: v.pollAfterSeconds,
    poll_url: v.pollUrl,
    webhook_url: v.webhookUrl,
    done: v.done,
    total: v.total,
    episodes: v.episodes.map((e) => ({ transcript_id: e.transcriptId, title: e.title, status: e.status, url: e.url, transcript_url: e.transcriptUrl, charged: e.charged, error: e.error })),
    created_at: v.createdAt.toISOString(),
    finished_at: iso(v.finishedAt),
    credits_refunded: v.creditsRefunded,
  };
}

export function requestResultWire(r: RequestResult) {
  return {
    request_id: r.requestId,
    job: r.job ? jobWire(r.job) : null,
    already_transcribed: r.alreadyTranscribed.map((a) => ({ transcript_id: a.transcriptId, title: a.title, charged: a.charged, url: a.url, transcript_url: a.transcriptUrl })),
    queued: r.queued,
    credits_charged: r.creditsCharged,
    credits_remaining: r.creditsRemaining,
    delivery: r.delivery,
    notify: r.notify,
    dry_run: r.dryRun,
    credits_required: r.creditsRequired,
    sufficient: r.sufficient,
    fast: r.fast,
    fast_lane_available: r.fastLaneAvailable,
    promise_seconds: r.promiseSeconds,
    estimated_seconds: r.estimatedSeconds,
    estimated_ready_at: iso(r.estimatedReadyAt),
    queue_ahead_episodes: r.queueAheadEpisodes,
    episodes: r.episodes.map((e) => ({ transcript_id: e.transcriptId, title: e.title, status: e.status, charged: e.charged })),
  };
}
