import type { Tx } from './transaction.js';

/** Leases ended, by kind of work. */
export interface ExpiredLeases {
  tasks: number;
  chunks: number;
  deliveries: number;
  mails: number;
}

/**
 * Ends every lease in the database at once, as if each had run out: the
 * work is claimed again on the next turn (a failed attempt where a lease
 * running out counts as one), instead of after up to two minutes. Only for a
 * process that is the one way into its database (PGlite's data directory,
 * locked at open): every lease found there was taken by a process that is
 * gone. Never on PostgreSQL, where other processes hold live leases.
 */
export async function expireAllLeases(db: Tx): Promise<ExpiredLeases> {
  // A second in the past: the claims compare with `now()` of their own later statement.
  const tasks = await db.$executeRaw`
    UPDATE transcription_tasks SET lease_until = now() - interval '1 second' WHERE status = 'running' AND lease_until > now() - interval '1 second'`;
  const chunks = await db.$executeRaw`
    UPDATE transcription_chunks SET lease_until = now() - interval '1 second' WHERE status = 'running' AND lease_until > now() - interval '1 second'`;
  const deliveries = await db.$executeRaw`
    UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE status = 'sending' AND lease_until > now() - interval '1 second'`;
  const mails = await db.$executeRaw`
    UPDATE mails SET lease_until = now() - interval '1 second' WHERE status = 'sending' AND lease_until > now() - interval '1 second'`;
  return { tasks, chunks, deliveries, mails };
}
