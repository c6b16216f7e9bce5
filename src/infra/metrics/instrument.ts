import type { RefreshSummary } from '../../core/catalog/ingest/catalog-ingest.js';
import type { TaskApi } from '../../core/jobs/task-api.js';
import type { ClaimedTask } from '../../core/jobs/task-queue.js';
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
 * Times each task attempt this process claims, from claim to its end:
 * stored, stale (lease lost), retry, failed, or released (handed back at shutdown).
 */
export function timeTasks(tasks: TaskApi, metrics: Metrics): void {
  const claimedAt = new WeakMap<ClaimedTask, number>();
  const observe = (task: ClaimedTask, outcome: string) => {
    const at = claimedAt.get(task);
    if (at === undefined) return;
    claimedAt.delete(task);
    metrics.taskDuration.observe({ lane: task.lane, outcome }, (performance.now() - at) / 1000);
  };
  const { claim, complete, fail, release } = tasks;
  tasks.claim = async (workerId) => {
    const task = await claim(workerId);
    if (task) claimedAt.set(task, performance.now());
    return task;
  };
  tasks.complete = async (task, result, engine) => {
    const outcome = await complete(task, result, engine);
    observe(task, outcome);
    return outcome;
  };
  tasks.fail = async (task, failure) => {
    const outcome = await fail(task, failure);
    observe(task, outcome);
    return outcome;
  };
  tasks.release = async (task) => {
    const released = await release(task);
    observe(task, 'released');
    return released;
  };
}
