import type { AlreadyTranscribed, QuotedEpisode, RequestResult } from '../core/jobs/create-request.js';
import type { JobEpisodeView, JobView } from '../core/jobs/job-view.js';
import { prices } from '../core/pricing.js';
import { TRANSCRIPT_ID_PATTERN } from '../core/transcript-id.js';
import { field, shape } from './shape.js';

const jobEpisodeShape = shape<JobEpisodeView>(
  { rest: 'JobEpisode' },
  {
    transcript_id: field.string(undefined, (e) => e.transcriptId, { pattern: TRANSCRIPT_ID_PATTERN }),
    title: field.string(undefined, (e) => e.title),
    status: field.string(
      "`queued` until settled, then `ready`, or `failed` when the audio could not be fetched or transcribed after bounded retries (its credits are refunded and the job still completes). `failed` is an addition to the spec's two values.",
      (e) => e.status,
      { values: ['queued', 'ready', 'failed'] },
    ),
    url: field.string('Episode page URL, once ready.', (e) => e.url, { nullable: true }),
    transcript_url: field.string('GET it with the key, once ready.', (e) => e.transcriptUrl, { nullable: true }),
    charged: field.int('Credits charged for this episode (0 when this key already paid for it in another unfinished job).', (e) => e.charged),
    error: field.string('Why it failed; null otherwise.', (e) => e.error, { nullable: true }),
  },
);

/** Spec 2.7: REST `Job`, GraphQL `Job`, and the `job` of webhook events. */
export const jobShape = shape<JobView>(
  { rest: 'Job', description: 'A transcription job with live status and estimate.' },
  {
    id: field.string(undefined, (j) => j.id, { format: 'uuid' }),
    status: field.string(undefined, (j) => j.status, { values: ['queued', 'processing', 'done'] }),
    fast: field.boolean(undefined, (j) => j.fast),
    promise_seconds: field.int('Fast lane, while running: seconds from creation by which the job is promised; later, the premium is refunded automatically.', (j) => j.promiseSeconds, { nullable: true }),
    estimated_ready_at: field.datetime('From the live queue and the measured throughput of each lane, and never sooner than a running episode’s own pace allows; null once done.', (j) => j.estimatedReadyAt, { nullable: true }),
    estimated_seconds: field.int('Seconds from now until every episode is expected ready; 0 once done.', (j) => j.estimatedSeconds),
    queue_ahead_episodes: field.int("Other jobs' episodes ahead of this job's first one.", (j) => j.queueAheadEpisodes),
    poll_after_seconds: field.int('A quarter of the remaining estimate, between 30 and 300; null once done.', (j) => j.pollAfterSeconds, { nullable: true }),
    poll_url: field.string(undefined, (j) => j.pollUrl),
    webhook_url: field.string(undefined, (j) => j.webhookUrl, { nullable: true }),
    done: field.int('Episodes settled (ready or failed).', (j) => j.done),
    total: field.int(undefined, (j) => j.total),
    episodes: field.list(jobEpisodeShape, undefined, (j) => j.episodes),
    created_at: field.datetime(undefined, (j) => j.createdAt),
    finished_at: field.datetime(undefined, (j) => j.finishedAt, { nullable: true }),
    credits_refunded: field.int('Credits given back so far: failed episodes, and the fast-lane premium when late or run on the standard lane.', (j) => j.creditsRefunded),
  },
);

const alreadyTranscribedShape = shape<AlreadyTranscribed>(
  { rest: 'AlreadyTranscribed' },
  {
    transcript_id: field.string(undefined, (a) => a.transcriptId),
    title: field.string(undefined, (a) => a.title),
    charged: field.int(`${prices.unlock}, or 0 when this key had already unlocked it.`, (a) => a.charged),
    url: field.string('Episode page URL.', (a) => a.url),
    transcript_url: field.string(undefined, (a) => a.transcriptUrl),
  },
);

const quotedEpisodeShape = shape<QuotedEpisode>(
  { rest: 'QuotedEpisode' },
  {
    transcript_id: field.string(undefined, (q) => q.transcriptId),
    title: field.string(undefined, (q) => q.title),
    status: field.string('`ready`: already in the library (unlocked); `queued`: to transcribe.', (q) => q.status, { values: ['ready', 'queued'] }),
    charged: field.int('Credits for this episode (charged, or on a dry run, that would be).', (q) => q.charged),
  },
);

/** What a transcription request answers (spec 2.7); with a dry run, the quote. */
export const requestResultShape = shape<RequestResult>(
  { rest: 'TranscriptionRequestResult', description: 'Result of a transcription request; with a dry run the quote (job null, nothing charged).' },
  {
    request_id: field.string('The job id when a job exists; null when nothing was queued and on a dry run.', (r) => r.requestId, { nullable: true }),
    job: field.object(jobShape, 'The job of the queued episodes; null when nothing was queued and on a dry run.', (r) => r.job, { nullable: true }),
    already_transcribed: field.list(alreadyTranscribedShape, undefined, (r) => r.alreadyTranscribed),
    queued: field.int(undefined, (r) => r.queued),
    credits_charged: field.int('0 on a dry run.', (r) => r.creditsCharged),
    credits_remaining: field.int(undefined, (r) => r.creditsRemaining),
    delivery: field.string('What happens next, in a sentence.', (r) => r.delivery),
    notify: field.string('Address that is emailed on completion.', (r) => r.notify),
    dry_run: field.boolean(undefined, (r) => r.dryRun),
    credits_required: field.int('What the request costs (dry run: would cost).', (r) => r.creditsRequired),
    sufficient: field.boolean('Whether the balance covers credits_required (dry run; always true otherwise).', (r) => r.sufficient),
    fast: field.boolean(undefined, (r) => r.fast),
    fast_lane_available: field.boolean(
      'Whether this Podtext has a fast lane (a GPU engine); without one `fast: true` is answered 400 `fast_lane_unavailable`. A dry run tells before anything is charged.',
      (r) => r.fastLaneAvailable,
    ),
    promise_seconds: field.int('Fast lane: the promise, at least 300 s, longer for big batches.', (r) => r.promiseSeconds, { nullable: true }),
    estimated_seconds: field.int(undefined, (r) => r.estimatedSeconds),
    estimated_ready_at: field.datetime(undefined, (r) => r.estimatedReadyAt, { nullable: true }),
    queue_ahead_episodes: field.int(undefined, (r) => r.queueAheadEpisodes),
    episodes: field.list(quotedEpisodeShape, 'Every requested episode (a guid named twice counts once) with its charge.', (r) => r.episodes),
  },
);
