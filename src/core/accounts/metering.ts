import type { PrismaClient } from '../../generated/prisma/client.js';
import { type Clock, utcDay } from '../clock.js';
import { plans } from '../pricing.js';
import type { Actor } from './actor.js';

/** What a metered call reports back in the rate-limit headers. */
export interface MeterResult {
  allowed: boolean;
  limit: number;
  remaining: number;
}

export interface MeteringOptions {
  db: PrismaClient;
  clock: Clock;
  /**
   * Below this many remaining requests every count is written to the database
   * before answering, so the limit is exact near the end. Default: 100.
   */
  exactBelow?: number;
  /** Milliseconds between batched flushes of the fast-path counts. Default: 1000. */
  flushEveryMs?: number;
}

interface DayCount {
  day: string;
  /** The shared count last read from the database. */
  stored: number;
  /** Counted here and not yet flushed. */
  pending: number;
}

/**
 * Daily request allowance per account (UTC day).
 *
 * Far from the limit, counts are kept in memory and flushed in batches, so a
 * warm request never waits on the database. Within `exactBelow` of the limit
 * each request increments the shared row with a guarded UPDATE, so the limit
 * holds exactly even across processes. The margin: while an account is far
 * from its limit, other processes' unflushed counts (at most one flush
 * interval's worth) are unseen here; they are all seen before the exact zone
 * is left, so the overshoot is bounded by the requests made in one flush
 * interval by other processes, and is zero with one process.
 */
export function createMetering({ db, clock, exactBelow = 100, flushEveryMs = 1000 }: MeteringOptions) {
  const counts = new Map<string, DayCount>();
  let flushing: Promise<void> | null = null;

  function entry(accountId: string, day: string): DayCount | undefined {
    const c = counts.get(accountId);
    return c && c.day === day ? c : undefined;
  }

  async function readStored(accountId: string, day: string): Promise<number> {
    const row = await db.requestCounter.findUnique({ where: { accountId_day: { accountId, day: new Date(`${day}T00:00:00Z`) } } });
    return row?.count ?? 0;
  }

  async function addStored(accountId: string, day: string, delta: number): Promise<number> {
    const rows = await db.$queryRaw<{ count: number }[]>`
      INSERT INTO request_counters (account_id, day, count) VALUES (${accountId}::uuid, ${day}::date, ${delta})
      ON CONFLICT (account_id, day) DO UPDATE SET count = request_counters.count + EXCLUDED.count
      RETURNING count`;
    return rows[0]!.count;
  }

  /** Adds `amount` unless that passes the limit. Returns the new count, or null when refused. */
  async function takeExact(accountId: string, day: string, limit: number, amount: number): Promise<number | null> {
    const rows = await db.$queryRaw<{ count: number }[]>`
      INSERT INTO request_counters (account_id, day, count) VALUES (${accountId}::uuid, ${day}::date, ${amount})
      ON CONFLICT (account_id, day) DO UPDATE SET count = request_counters.count + EXCLUDED.count
      WHERE request_counters.count + EXCLUDED.count <= ${limit}
      RETURNING count`;
    return rows[0]?.count ?? null;
  }

  async function flush(): Promise<void> {
    const work = [...counts.entries()].filter(([, c]) => c.pending > 0);
    for (const [accountId, c] of work) {
      const delta = c.pending;
      c.pending = 0;
      try {
        const total = await addStored(accountId, c.day, delta);
        if (entry(accountId, c.day) === c) c.stored = total - c.pending;
      } catch (err) {
        c.pending += delta;
        throw err;
      }
    }
    const today = utcDay(clock.now());
    for (const [id, c] of counts) if (c.day !== today && c.pending === 0) counts.delete(id);
  }

  const timer = setInterval(() => {
    if (!flushing) flushing = flush().catch(() => undefined).finally(() => (flushing = null));
  }, flushEveryMs);
  timer.unref();

  return {
    /**
     * Counts `cost` requests (a GraphQL operation costs one per root field)
     * against the actor's allowance for today.
     */
    async take(actor: Actor, cost = 1): Promise<MeterResult> {
      const limit = plans[actor.plan].dailyRequests;
      const day = utcDay(clock.now());
      let c = entry(actor.accountId, day);
      if (!c) {
        c = { day, stored: await readStored(actor.accountId, day), pending: 0 };
        counts.set(actor.accountId, c);
      }
      const used = c.stored + c.pending;
      if (limit - used - cost >= exactBelow) {
        c.pending += cost;
        return { allowed: true, limit, remaining: limit - used - cost };
      }
      // Near the limit: settle what is pending and count exactly in the database.
      const pending = c.pending;
      c.pending = 0;
      const total = pending + cost <= limit ? await takeExact(actor.accountId, day, limit, pending + cost) : null;
      if (total === null) {
        // The pending requests were already answered: record them anyway.
        const stored = pending > 0 ? await addStored(actor.accountId, day, pending) : await readStored(actor.accountId, day);
        c.stored = stored;
        return { allowed: false, limit, remaining: Math.max(0, limit - stored) };
      }
      c.stored = total;
      return { allowed: true, limit, remaining: Math.max(0, limit - total) };
    },

    /** Requests counted today, including those not yet flushed. */
    async usedToday(actor: Actor): Promise<number> {
      const day = utcDay(clock.now());
      const c = entry(actor.accountId, day);
      if (c) return c.stored + c.pending;
      return readStored(actor.accountId, day);
    },

    /** Writes pending counts now (on shutdown and in tests). */
    async flush(): Promise<void> {
      if (flushing) await flushing;
      await flush();
    },

    stop(): void {
      clearInterval(timer);
    },
  };
}

export type Metering = ReturnType<typeof createMetering>;
