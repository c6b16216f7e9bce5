import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
import type { Logger } from '../../infra/logger.js';
import type { Actor } from '../accounts/actor.js';
import type { Clock } from '../clock.js';
import { DomainError, invalid } from '../errors.js';
import { wholeNumber } from '../whole-number.js';
import type { Links } from '../links.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { createRequester } from './create-request.js';
import type { JobChange, SettleContext } from './finish-jobs.js';
import type { OnJobDone } from './job-done-payload.js';
import { defaultJobOptions, type JobOptions } from './job-options.js';
import { createJobViews, type JobView } from './job-view.js';
import { watchJobs } from './job-watch.js';
import { createTaskApi } from './task-api.js';

/** Jobs per page of `GET /jobs` (spec 8): default 20, at most 50. */
export const JOBS_PER_PAGE = { default: 20, max: 50 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface JobServiceDeps {
  db: PrismaClient;
  bus: EventBus;
  clock: Clock;
  links: Links;
  outbox: MailOutbox;
  log: Logger;
  sampleTranscriptId: string;
  /** Drops cached balances and unlocks of an account (accounts.changed). */
  onAccountChanged(accountId: string): Promise<void>;
  /** Announces a stored transcript so every process drops its cached version (transcripts.stored). */
  onTranscriptStored(transcriptId: string): void;
  /** Queues the `job.done` webhook, inside the transaction that sets the job done. */
  onJobDone?: OnJobDone;
  /** Checks `webhook_url` where it will be delivered (https, public address); returns it normalised. */
  checkWebhookUrl?: (url: string) => Promise<string>;
  options?: Partial<JobOptions>;
}

export interface JobPage {
  jobs: JobView[];
  page: number;
  per: number;
  total: number;
  hasMore: boolean;
}

/**
 * Transcription requests and jobs: quoting, charging and queuing
 * (`request`), reading (`get`, `list`), live status (`watch`), and the
 * task API the transcription workers drive (`tasks`).
 */
export function createJobService(deps: JobServiceDeps) {
  const { db, bus, clock, links, log } = deps;
  const options: JobOptions = {
    ...defaultJobOptions,
    ...deps.options,
    laneEngines: { ...defaultJobOptions.laneEngines, ...deps.options?.laneEngines },
  };
  const views = createJobViews({ clock, links, options });
  const settle: SettleContext = { clock, links, outbox: deps.outbox, onJobDone: deps.onJobDone };

  /**
   * Publishes committed changes; a failing bus must not undo or fail what already committed.
   * The accounts first: whoever reads a balance on hearing of a job (the account page's live
   * rows) then reads it past the remembered one.
   */
  async function afterCommit(changes: JobChange[], accounts: string[]): Promise<void> {
    for (const a of new Set(accounts)) await deps.onAccountChanged(a).catch((err) => log.warn({ err }, 'account.changed not published'));
    for (const c of changes) {
      await bus.publish({ type: 'job.updated', accountId: c.accountId, jobId: c.jobId, status: c.status }).catch((err) => log.warn({ err, jobId: c.jobId }, 'job.updated not published'));
    }
    if (changes.some((c) => c.status === 'done')) deps.outbox.notify();
  }

  async function get(actor: Actor, rawId: string): Promise<JobView> {
    const job = UUID.test(rawId) ? await views.get(db, actor.accountId, rawId.toLowerCase()) : null;
    if (!job) throw new DomainError('not_found', `No job ${rawId} for this key.`);
    return job;
  }

  return {
    options,

    /** `POST /requests`; see {@link createRequester}. */
    request: createRequester({ db, clock, links, options, views, sampleTranscriptId: deps.sampleTranscriptId, afterCommit, checkWebhookUrl: deps.checkWebhookUrl }),

    /** One job of the caller's account; `not_found` for a malformed id or another account's job. */
    get,

    /** The caller's jobs, newest first. `page` from 1; `per` 1–50 (default 20). */
    /** `page` and `per` as numbers or as query text (see wholeNumber). */
    async list(actor: Actor, opts: { page?: number | string | null; per?: number | string | null } = {}): Promise<JobPage> {
      const page = wholeNumber(opts.page, 'page', { default: 1 });
      const per = wholeNumber(opts.per, 'per', JOBS_PER_PAGE);
      const { jobs, total } = await views.list(db, actor.accountId, (page - 1) * per, per);
      return { jobs, page, per, total, hasMore: page * per < total };
    },

    /**
     * `limit` (1–50) of the caller's jobs older than job `afterId` (from the newest when null),
     * newest first: GraphQL's connection, whose pages neither repeat nor skip a job when new
     * ones are created while a client pages. `invalid_request` naming `after` for an id that is
     * no job of the caller's.
     */
    async range(actor: Actor, afterId: string | null, limit: number): Promise<{ jobs: JobView[]; total: number; hasMore: boolean }> {
      if (!Number.isInteger(limit) || limit < 1 || limit > JOBS_PER_PAGE.max) throw invalid('first', `must be a whole number from 1 to ${JOBS_PER_PAGE.max}`);
      const page = afterId === null || UUID.test(afterId) ? await views.listBefore(db, actor.accountId, afterId?.toLowerCase() ?? null, limit) : null;
      if (!page) throw invalid('after', 'not a cursor from this connection');
      return page;
    },

    /** The job's current state, then each change; ends once it is done. Only its owner may watch. */
    async watch(actor: Actor, rawId: string): Promise<AsyncIterableIterator<JobView>> {
      if (!UUID.test(rawId)) throw new DomainError('not_found', `No job ${rawId} for this key.`);
      // Read once, after subscribing (inside watchJobs), so no change is missed and nothing is read twice.
      return watchJobs({
        bus,
        accountId: actor.accountId,
        jobId: rawId.toLowerCase(),
        load: (id) => views.get(db, actor.accountId, id),
        initial: async () => [await get(actor, rawId)],
        endWhenDone: true,
      });
    },

    /** Every change to any of the caller's jobs, after its unfinished jobs' current states. */
    watchAll(actor: Actor): Promise<AsyncIterableIterator<JobView>> {
      return watchJobs({
        bus,
        accountId: actor.accountId,
        load: (id) => views.get(db, actor.accountId, id),
        initial: () => views.open(db, actor.accountId),
        endWhenDone: false,
      });
    },

    /** What transcription workers call: claim, heartbeat, complete, fail, release. */
    tasks: createTaskApi({ db, clock, log, settle, afterCommit, onTranscriptStored: deps.onTranscriptStored }),
  };
}

export type JobService = ReturnType<typeof createJobService>;
