import type { Door } from '../../core/door/door.js';
import type { RefreshSummary } from '../../core/catalog/ingest/catalog-ingest.js';
import type { TaskApi } from '../../core/jobs/task-api.js';
import type { MailTransport } from '../mail/mail-transport.js';
import type { Metrics } from './metrics.js';

/**
 * Counting wrappers around services built elsewhere: each keeps its
 * service's contract and only adds a count, so the services need not know
 * about Prometheus.
 */

/** Counts sent and failed mails. */
export function countMails(mail: MailTransport, metrics: Metrics): MailTransport {
  return {
    async send(m) {
      try {
        await mail.send(m);
        metrics.mails.inc({ outcome: 'sent' });
      } catch (err) {
        metrics.mails.inc({ outcome: 'failed' });
        throw err;
      }
    },
    close: () => mail.close(),
  };
}

/** Counts the feeds a `refreshDue` pass read, by outcome. */
export function countFeedRefreshes<T extends { refreshDue(limit?: number, signal?: AbortSignal): Promise<RefreshSummary> }>(ingest: T, metrics: Metrics): Pick<T, 'refreshDue'> {
  return {
    async refreshDue(limit, signal) {
      const summary = await ingest.refreshDue(limit, signal);
      metrics.feedRefreshes.inc({ outcome: 'updated' }, summary.updated);
      metrics.feedRefreshes.inc({ outcome: 'not_modified' }, summary.notModified);
      metrics.feedRefreshes.inc({ outcome: 'failed' }, summary.failed);
      return summary;
    },
  };
}

/** Counts each webhook attempt by outcome and attempt number (6 and later share one label). */
export function webhookAttemptCounter(metrics: Metrics) {
  return (outcome: 'delivered' | 'failed' | 'dropped', attempt: number) =>
    metrics.webhookAttempts.inc({ outcome, attempt: String(Math.min(attempt, 6)) });
}

/**
 * Times each piece of work this process claims, from claim to its end, by
 * kind (task: download, decode and split or recognise; chunk: one stretch of
 * audio) and outcome: stored, settled, split, stale (lease lost), retry,
 * failed, or released (handed back at shutdown).
 */
export function timeTasks(tasks: TaskApi, metrics: Metrics): void {
  const claimedAt = new WeakMap<object, number>();
  const observe = (work: object, kind: 'task' | 'chunk', lane: string, outcome: string) => {
    const at = claimedAt.get(work);
    if (at === undefined) return;
    claimedAt.delete(work);
    metrics.taskDuration.observe({ kind, lane, outcome }, (performance.now() - at) / 1000);
  };
  const t = { ...tasks };
  tasks.claimWork = async (workerId) => {
    const work = await t.claimWork(workerId);
    if (work) claimedAt.set('task' in work ? work.task : work.chunk, performance.now());
    return work;
  };
  tasks.complete = async (task, result, engine) => {
    const outcome = await t.complete(task, result, engine);
    observe(task, 'task', task.lane, outcome);
    return outcome;
  };
  tasks.fail = async (task, failure) => {
    const outcome = await t.fail(task, failure);
    observe(task, 'task', task.lane, outcome);
    return outcome;
  };
  tasks.release = async (task) => {
    const released = await t.release(task);
    observe(task, 'task', task.lane, 'released');
    return released;
  };
  tasks.splitIntoChunks = async (task, chunks, f) => {
    const split = await t.splitIntoChunks(task, chunks, f);
    observe(task, 'task', task.lane, split ? 'split' : 'stale');
    return split;
  };
  tasks.completeChunk = async (chunk, result, slotSeconds, engines) => {
    const outcome = await t.completeChunk(chunk, result, slotSeconds, engines);
    observe(chunk, 'chunk', chunk.lane, outcome);
    return outcome;
  };
  tasks.failChunk = async (chunk, failure) => {
    const outcome = await t.failChunk(chunk, failure);
    observe(chunk, 'chunk', chunk.lane, outcome);
    return outcome;
  };
  tasks.releaseChunk = async (chunk) => {
    const released = await t.releaseChunk(chunk);
    observe(chunk, 'chunk', chunk.lane, 'released');
    return released;
  };
}

/**
 * Counts the door's answers: calls counted against an allowance, and calls
 * refused because it is spent. Every transport admits through the door, so
 * REST, GraphQL and graphql-ws are all counted here, exactly once.
 */
export function countAdmissions(door: Door, metrics: Metrics): void {
  const count = <A extends { counted: number; error: { code: string } | null }>(a: A): A => {
    if (a.error?.code === 'rate_limited') metrics.requestsRefused.inc();
    // A GraphQL document of three root fields is three calls, as the allowance counts it.
    else if (a.counted > 0) metrics.requestsMetered.inc(a.counted);
    return a;
  };
  const { admit, admitActor } = door;
  // Not async: a warm admission comes back without a promise, and stays so.
  door.admit = (calls, credentials) => {
    const admitted = admit(calls, credentials);
    return admitted instanceof Promise ? admitted.then(count) : count(admitted);
  };
  door.admitActor = async (calls, actor) => count(await admitActor(calls, actor));
}
