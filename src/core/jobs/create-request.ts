import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Actor } from '../accounts/actor.js';
import type { Clock } from '../clock.js';
import { DomainError, invalid } from '../errors.js';
import * as ledger from '../ledger.js';
import type { Links } from '../links.js';
import { inTransaction, type Tx } from '../transaction.js';
import { deliveryText } from './delivery-text.js';
import { estimateSeconds, promiseSeconds } from './eta.js';
import type { JobChange } from './finish-jobs.js';
import { pollUrl } from './job-done-payload.js';
import type { JobOptions } from './job-options.js';
import type { JobView, JobViews } from './job-view.js';
import { laneOf } from './lanes.js';
import { checkOtherAddressQuota } from './notify-limit.js';
import { liveSlots, queueAheadOfNew } from './queue-state.js';
import { type EpisodeQuote, paidSeconds, quoteEpisodes, quoteTotal } from './quote.js';
import { checkRequestInput, type CheckedRequest, type TranscriptionRequestInput } from './request-input.js';
import { addRequestedEpisodes, type ResolvedEpisode, resolveEpisodes } from './resolve-episodes.js';
import { queueOrJoinTask } from './task-queue.js';
import { readLaneRates } from './throughput.js';
import { unlockInTransaction } from '../unlock.js';

/** An episode already in the library, unlocked by the request. */
export interface AlreadyTranscribed {
  transcriptId: string;
  title: string;
  charged: number;
  url: string;
  transcriptUrl: string;
}

/** What one requested episode costs: library (`ready`) or to transcribe (`queued`). */
export interface QuotedEpisode {
  transcriptId: string;
  title: string;
  status: 'ready' | 'queued';
  charged: number;
}

/** The result of `POST /requests` (spec 2.8) and, with `dryRun`, the quote. */
export interface RequestResult {
  dryRun: boolean;
  requestId: string | null;
  job: JobView | null;
  alreadyTranscribed: AlreadyTranscribed[];
  queued: number;
  /** What the request costs (or would cost). */
  creditsRequired: number;
  creditsCharged: number;
  creditsRemaining: number;
  /** Whether the balance covers `creditsRequired` (always true for a request that went through). */
  sufficient: boolean;
  fast: boolean;
  /** Whether this Podtext has a fast lane (an engine faster than the standard one); without it `fast` is refused. */
  fastLaneAvailable: boolean;
  promiseSeconds: number | null;
  estimatedSeconds: number;
  estimatedReadyAt: Date | null;
  queueAheadEpisodes: number;
  episodes: QuotedEpisode[];
  delivery: string;
  notify: string;
}

export interface RequesterDeps {
  /** The webhooks module's check of `webhook_url` (private addresses refused). */
  checkWebhookUrl?: (url: string) => Promise<string>;
  db: PrismaClient;
  clock: Clock;
  links: Links;
  options: JobOptions;
  views: JobViews;
  sampleTranscriptId: string;
  /** Publishes what changed, once the transaction has committed. */
  afterCommit(changes: JobChange[], accounts: string[]): Promise<void>;
}

/** The episodes' states moved between planning and committing: plan again. */
class PlanOutdated extends Error {}

interface Plan {
  quotes: EpisodeQuote[];
  total: number;
  estimatedSeconds: number;
  queueAheadEpisodes: number;
  promiseSeconds: number | null;
}

/** What this account has paid for an episode it still waits on: on the fast lane, or the hours billed on the standard lane. */
interface PaidAndWaiting {
  fast: boolean;
  standardHours: number;
}

/** Of `ids`, the episodes this account has paid for and still waits on, and on which lanes. */
async function paidAndWaiting(db: Tx, accountId: string, ids: string[]): Promise<Map<string, PaidAndWaiting>> {
  const rows = await db.$queryRaw<{ transcript_id: string; fast: boolean; standard_hours: number | null }[]>`
    SELECT je.transcript_id, bool_or(j.fast) AS fast, max(je.billed_hours) FILTER (WHERE NOT j.fast) AS standard_hours
    FROM job_episodes je JOIN jobs j ON j.id = je.job_id
    WHERE j.account_id = ${accountId}::uuid AND je.status = 'queued' AND je.charged > 0 AND je.transcript_id = ANY(${ids})
    GROUP BY je.transcript_id`;
  return new Map(rows.map((r) => [r.transcript_id, { fast: r.fast, standardHours: Number(r.standard_hours ?? 0) }]));
}

/** `POST /requests`: unlock what is held, queue the rest as one job, all or nothing. */
export function createRequester(deps: RequesterDeps) {
  const { db, clock, links, options } = deps;

  /** The episodes priced for this account, given what it already unlocked and what it paid for and still waits on. */
  function quote(episodes: ResolvedEpisode[], fast: boolean, unlocked: Set<string>, paid: Map<string, PaidAndWaiting>): EpisodeQuote[] {
    return quoteEpisodes(episodes, {
      fast,
      unlocked,
      // Paid on a lane at least as fast: nothing more to pay. Paid on the standard lane, asked for fast: the premium.
      alreadyPaid: new Set([...paid].filter(([, p]) => p.fast || !fast).map(([id]) => id)),
      standardHoursPaid: new Map([...paid].map(([id, p]) => [id, p.standardHours])),
      unknownDurationSeconds: options.unknownDurationSeconds,
    });
  }

  async function plan(accountId: string, input: CheckedRequest): Promise<Plan> {
    const episodes = await resolveEpisodes(db, input.items);
    const ids = episodes.map((e) => e.transcriptId);
    const unlocked = await db.unlock.findMany({ where: { accountId, transcriptId: { in: ids } }, select: { transcriptId: true } });
    // The public sample is unlocked for everyone: naming it costs nothing, as POST /unlock of it does.
    const free = new Set([...unlocked.map((u) => u.transcriptId), deps.sampleTranscriptId]);
    const quotes = quote(episodes, input.fast, free, await paidAndWaiting(db, accountId, ids));
    const toTranscribe = quotes.filter((q) => q.kind === 'transcribe');
    let estimatedSeconds = 0;
    let queueAheadEpisodes = 0;
    let promise: number | null = null;
    if (toTranscribe.length > 0) {
      const lane = laneOf(input.fast);
      const ahead = await queueAheadOfNew(db, lane, toTranscribe.map((q) => q.audioSeconds));
      const rates = await readLaneRates(db, options.laneEngines);
      const slots = Math.max(1, await liveSlots(db, options.workerTtlSeconds));
      estimatedSeconds = estimateSeconds(ahead, rates, slots, options.fastConcurrency);
      queueAheadEpisodes = ahead.aheadEpisodes;
      if (input.fast) promise = promiseSeconds(estimatedSeconds, { minSeconds: options.minPromiseSeconds, factor: options.promiseFactor });
    }
    return { quotes, total: quoteTotal(quotes), estimatedSeconds, queueAheadEpisodes, promiseSeconds: promise };
  }

  /** Everything the request changes, in one transaction. */
  async function commit(tx: Tx, accountId: string, input: CheckedRequest, notify: string, p: Plan, jobId: string) {
    const library = p.quotes.filter((q) => q.kind === 'library');
    const transcribe = p.quotes.filter((q) => q.kind === 'transcribe');
    await addRequestedEpisodes(tx, transcribe.map((q) => q.episode));
    // Tasks are locked before the account, in transcript order: the order settlements lock in too.
    const tasks = new Map<string, string>();
    let joinedRunning = false;
    for (const q of [...transcribe].sort((a, b) => a.episode.transcriptId.localeCompare(b.episode.transcriptId))) {
      const task = await queueOrJoinTask(tx, {
        transcriptId: q.episode.transcriptId,
        lane: laneOf(input.fast),
        audioUrl: q.episode.audioUrl,
        audioSeconds: q.audioSeconds,
        maxSeconds: paidSeconds(q.billedHours, options.maxEpisodeSeconds),
        maxAttempts: options.maxAttempts,
        leaseSeconds: options.leaseSeconds,
        retryDelaySeconds: options.retryDelaySeconds,
      });
      if (!task) throw new PlanOutdated();
      if (task.created) {
        const marked = await tx.$executeRaw`
          UPDATE episodes SET transcript_status = 'processing', updated_at = now()
          WHERE transcript_id = ${q.episode.transcriptId} AND transcript_status <> 'ready'`;
        if (marked === 0) throw new PlanOutdated();
      }
      tasks.set(q.episode.transcriptId, task.id);
      joinedRunning ||= task.running;
    }
    const [account] = await tx.$queryRaw<{ credits: number; email: string }[]>`SELECT credits, email FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
    if (!account) throw new DomainError('not_found', 'No such account');
    // Only a job mails; counted under the account's lock, so requests at once cannot pass the bound together.
    if (transcribe.length > 0) await checkOtherAddressQuota(tx, accountId, account.email, notify, clock.now());
    // The account's lock orders this key's requests: one for the same episode that committed since
    // the plan was made has paid for it (or its standard part), so this one is planned again and pays less.
    const charging = transcribe.filter((q) => q.charged > 0);
    if (charging.length > 0) {
      const paid = await paidAndWaiting(tx, accountId, charging.map((q) => q.episode.transcriptId));
      const now = quote(charging.map((q) => q.episode), input.fast, new Set(), paid);
      if (now.some((q, i) => q.charged !== charging[i]!.charged)) throw new PlanOutdated();
    }
    if (p.total > account.credits) throw insufficient(p.total, account.credits);
    const charged = new Map<string, number>();
    for (const q of library) charged.set(q.episode.transcriptId, (await unlockInTransaction(tx, accountId, q.episode.transcriptId, deps.sampleTranscriptId)).charged);
    if (transcribe.length > 0) {
      await tx.$executeRaw`
        INSERT INTO jobs (id, account_id, fast, notify_email, webhook_url, promise_seconds, total, created_at)
        VALUES (${jobId}::uuid, ${accountId}::uuid, ${input.fast}, ${notify}, ${input.webhookUrl}, ${p.promiseSeconds}, ${transcribe.length}, ${clock.now()})`;
    }
    for (const q of transcribe) {
      const tid = q.episode.transcriptId;
      const base = q.charged - q.premium;
      const chargeRef = base > 0 ? `job:${jobId}:${tid}` : null;
      const premiumRef = q.premium > 0 ? `job:${jobId}:${tid}:premium` : null;
      const what = `"${q.episode.title.slice(0, 80)}" (billed as ${q.billedHours} h, job ${jobId})`;
      if (chargeRef) await ledger.charge(tx, accountId, base, chargeRef, `Transcription of ${what}, unlock included`);
      if (premiumRef) await ledger.charge(tx, accountId, q.premium, premiumRef, `Fast-lane premium for ${what}`);
      await tx.$executeRaw`
        INSERT INTO job_episodes (job_id, transcript_id, position, title, task_id, billed_hours, charged, charge_reference, premium_reference)
        VALUES (${jobId}::uuid, ${tid}, ${q.episode.position}, ${q.episode.title}, ${tasks.get(tid)}::uuid, ${q.billedHours}, ${q.charged}, ${chargeRef}, ${premiumRef})`;
      charged.set(tid, q.charged);
    }
    // An episode already being transcribed (for another job) is work under way for this job too:
    // no worker will claim its task again to say so.
    const status: 'queued' | 'processing' = joinedRunning ? 'processing' : 'queued';
    if (joinedRunning) await tx.$executeRaw`UPDATE jobs SET status = 'processing', started_at = ${clock.now()} WHERE id = ${jobId}::uuid`;
    const after = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { credits: true } });
    return { charged, balance: after.credits, status };
  }

  function insufficient(required: number, available: number): DomainError {
    return new DomainError(
      'insufficient_credits',
      `This request needs ${required} credit${required === 1 ? '' : 's'}; the balance is ${available}. Nothing was charged or queued.`,
      { required, available },
    );
  }

  return async function request(actor: Actor, raw: TranscriptionRequestInput): Promise<RequestResult> {
    const input = checkRequestInput(raw);
    // Refused before anything is read or charged: a fast lane on the standard engine would be paid for and not faster.
    if (input.fast && !options.fastLaneAvailable) {
      throw new DomainError(
        'fast_lane_unavailable',
        'fast: this Podtext has no fast lane (no engine faster than the standard one is configured). Send the request without fast; nothing was charged or queued.',
        { field: 'fast' },
      );
    }
    if (input.webhookUrl) {
      if (deps.checkWebhookUrl) input.webhookUrl = await deps.checkWebhookUrl(input.webhookUrl);
      else if (!input.webhookUrl.startsWith('https://')) throw invalid('webhook_url', 'must be an https:// URL');
    }
    const account = await db.account.findUnique({ where: { id: actor.accountId }, select: { email: true, credits: true } });
    if (!account) throw new DomainError('not_found', 'No such account');
    const notify = input.email ?? account.email;
    for (let round = 1; ; round++) {
      const p = await plan(actor.accountId, input);
      const library = p.quotes.filter((q) => q.kind === 'library');
      const transcribe = p.quotes.filter((q) => q.kind === 'transcribe');
      const facts = { queued: transcribe.length, library: library.length, fast: input.fast, promiseSeconds: p.promiseSeconds, notify, webhookUrl: input.webhookUrl };
      const base = {
        alreadyTranscribed: [] as AlreadyTranscribed[],
        queued: transcribe.length,
        creditsRequired: p.total,
        fast: input.fast,
        fastLaneAvailable: options.fastLaneAvailable,
        promiseSeconds: p.promiseSeconds,
        queueAheadEpisodes: p.queueAheadEpisodes,
        notify,
      };
      if (input.dryRun) {
        const balance = (await db.account.findUniqueOrThrow({ where: { id: actor.accountId }, select: { credits: true } })).credits;
        return {
          ...base,
          dryRun: true,
          requestId: null,
          job: null,
          alreadyTranscribed: library.map((q) => alreadyTranscribed(q, q.charged)),
          creditsCharged: 0,
          creditsRemaining: balance,
          sufficient: p.total <= balance,
          estimatedSeconds: p.estimatedSeconds,
          estimatedReadyAt: transcribe.length ? new Date(clock.now().getTime() + p.estimatedSeconds * 1000) : null,
          episodes: p.quotes.map((q) => quoted(q, q.charged)),
          delivery: deliveryText({ ...facts, dryRun: true, estimatedSeconds: p.estimatedSeconds, pollUrl: null }),
        };
      }
      const jobId = randomUUID();
      let done: { charged: Map<string, number>; balance: number; status: 'queued' | 'processing' };
      try {
        done = await inTransaction(db, (tx) => commit(tx, actor.accountId, input, notify, p, jobId));
      } catch (err) {
        if (err instanceof PlanOutdated && round < 4) continue;
        throw err;
      }
      const hasJob = transcribe.length > 0;
      await deps.afterCommit(hasJob ? [{ jobId, accountId: actor.accountId, status: done.status }] : [], [actor.accountId]);
      const job = hasJob ? await deps.views.get(db, actor.accountId, jobId) : null;
      const creditsCharged = [...done.charged.values()].reduce((n, c) => n + c, 0);
      return {
        ...base,
        dryRun: false,
        requestId: job?.id ?? null,
        job,
        alreadyTranscribed: library.map((q) => alreadyTranscribed(q, done.charged.get(q.episode.transcriptId) ?? 0)),
        creditsRequired: creditsCharged,
        creditsCharged,
        creditsRemaining: done.balance,
        sufficient: true,
        estimatedSeconds: job?.estimatedSeconds ?? 0,
        estimatedReadyAt: job?.estimatedReadyAt ?? null,
        queueAheadEpisodes: job?.queueAheadEpisodes ?? 0,
        episodes: p.quotes.map((q) => quoted(q, done.charged.get(q.episode.transcriptId) ?? 0)),
        delivery: deliveryText({ ...facts, dryRun: false, estimatedSeconds: job?.estimatedSeconds ?? 0, pollUrl: job ? pollUrl(links, job.id) : null }),
      };
    }
  };

  function alreadyTranscribed(q: EpisodeQuote, charged: number): AlreadyTranscribed {
    const id = q.episode.transcriptId;
    return { transcriptId: id, title: q.episode.title, charged, url: links.episodePage(id), transcriptUrl: links.transcript(id) };
  }

  function quoted(q: EpisodeQuote, charged: number): QuotedEpisode {
    return { transcriptId: q.episode.transcriptId, title: q.episode.title, status: q.kind === 'library' ? 'ready' : 'queued', charged };
  }
}

