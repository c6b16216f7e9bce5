import type { Tx } from '../transaction.js';

/** Rows deleted per statement: short transactions, no long locks on the queue. */
const BATCH = 1000;

/** Runs a delete of at most `BATCH` rows until one deletes fewer; returns how many in all. */
async function inBatches(deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deleteBatch();
    total += n;
    if (n < BATCH) return total;
  }
}

export interface Pruned {
  tasks: number;
  deliveries: number;
  mails: number;
  /** Stripe event ids kept to answer a retried event once. */
  billingEvents: number;
  /** Audit rows of audio checks, an episode's newest always kept. */
  alignments: number;
}

/**
 * Deletes transcription tasks that finished (`done` or `failed`) and webhook
 * deliveries that were delivered more than `retentionDays` ago, in batches.
 * Settled job episodes keep their history (status, charge, error); only
 * their link to the finished task is cleared first. Queued episodes never
 * point at a finished task, so nothing a job still waits on is touched.
 * Failed deliveries are kept: their log is what a developer reads to fix
 * their endpoint. Mails sent or given up go too: their bodies are emptied
 * then, but each row still names its recipient, often a stranger's address.
 * Deleted shows' ids go after the same time, and so do the ids of Stripe
 * events received: Stripe retries an event for three days at most, so an id
 * older than that is never seen again. Audio checks' audit rows go too,
 * except each episode's newest: on a host that inserts new ads on every
 * download they grow by up to four a day per episode.
 */
export async function pruneFinished(db: Tx, retentionDays: number): Promise<Pruned> {
  const pruned: Pruned = { tasks: 0, deliveries: 0, mails: 0, billingEvents: 0, alignments: 0 };
  for (;;) {
    const old = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM transcription_tasks
      WHERE status IN ('done', 'failed') AND finished_at < now() - make_interval(days => ${retentionDays})
      LIMIT ${BATCH}`;
    if (old.length === 0) break;
    const ids = old.map((r) => r.id);
    // Only queued episodes are ever linked to a live task, so this only unlinks settled ones.
    await db.$executeRaw`UPDATE job_episodes SET task_id = NULL WHERE task_id = ANY(${ids}::uuid[])`;
    pruned.tasks += await db.$executeRaw`DELETE FROM transcription_tasks WHERE id = ANY(${ids}::uuid[]) AND status IN ('done', 'failed')`;
    if (old.length < BATCH) break;
  }
  pruned.deliveries = await inBatches(() => db.$executeRaw`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'delivered' AND finished_at < now() - make_interval(days => ${retentionDays})
      LIMIT ${BATCH})`);
  // A mail is sent or given up within about a day of being queued.
  pruned.mails = await inBatches(() => db.$executeRaw`
    DELETE FROM mails WHERE id IN (
      SELECT id FROM mails
      WHERE status IN ('sent', 'failed') AND created_at < now() - make_interval(days => ${retentionDays})
      LIMIT ${BATCH})`);
  pruned.billingEvents = await inBatches(() => db.$executeRaw`
    DELETE FROM billing_events WHERE id IN (
      SELECT id FROM billing_events WHERE received_at < now() - make_interval(days => ${Math.max(retentionDays, 3)}) LIMIT ${BATCH})`);
  pruned.alignments = await inBatches(() => db.$executeRaw`
    DELETE FROM audio_alignments WHERE id IN (
      SELECT a.id FROM audio_alignments a
      WHERE a.created_at < now() - make_interval(days => ${retentionDays})
        AND EXISTS (SELECT 1 FROM audio_alignments b WHERE b.transcript_id = a.transcript_id AND b.id > a.id)
      LIMIT ${BATCH})`);
  // Deleted shows' ids only tell running search indexes to drop them, within seconds.
  await db.$executeRaw`DELETE FROM shows_deleted WHERE deleted_at < now() - make_interval(days => ${retentionDays})`;
  return pruned;
}
