import type { Links } from '../links.js';
import type { Tx } from '../transaction.js';

/** One episode in the `job.done` event (spec section 6). */
export interface JobDoneEpisode {
  transcript_id: string;
  title: string;
  /** `ready`, or `failed` (refunded) when its audio could not be transcribed. */
  status: 'ready' | 'failed';
  url: string | null;
  transcript_url: string | null;
}

/** The `job` object of the spec's `job.done` webhook body, as the webhooks module sends it. */
export interface JobDonePayload {
  id: string;
  status: 'done';
  poll_url: string;
  episodes: JobDoneEpisode[];
  done: number;
  total: number;
}

/** What `onJobDone` receives: enough to queue a signed delivery. */
export interface JobDoneHookInput {
  jobId: string;
  accountId: string;
  webhookUrl: string;
  payload: JobDonePayload;
}

/**
 * Called inside the transaction that sets a job `done`, when the job has a
 * `webhook_url`; whatever it writes commits (or not) with the job's state.
 */
export type OnJobDone = (tx: Tx, job: JobDoneHookInput) => Promise<void>;

/** URL of `GET /jobs/{id}`. */
export function pollUrl(links: Links, jobId: string): string {
  return `${links.api}/jobs/${jobId}`;
}

export function jobDonePayload(
  links: Links,
  jobId: string,
  episodes: readonly { transcriptId: string; title: string; status: string }[],
): JobDonePayload {
  return {
    id: jobId,
    status: 'done',
    poll_url: pollUrl(links, jobId),
    episodes: episodes.map((e) => {
      const ready = e.status === 'ready';
      return {
        transcript_id: e.transcriptId,
        title: e.title,
        status: ready ? 'ready' : 'failed',
        url: ready ? links.episodePage(e.transcriptId) : null,
        transcript_url: ready ? links.transcript(e.transcriptId) : null,
      };
    }),
    done: episodes.length,
    total: episodes.length,
  };
}
