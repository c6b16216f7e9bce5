import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
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
   * Plan changes and credit events (`account.changed`) drop what is remembered
   * about an account, so a remembered refusal never outlives the plan it was
   * made under. Without a bus, only the plan in the actor is checked.
   */
  bus?: EventBus;
  /**
   * Below this many remaining requests every count is written to the database
   * before answering, so the limit is exact near the end. Default: 100.
   */
  exactBelow?: number;
  /** Milliseconds between batched flushes of the fast-path counts. Default: 1000. */
  flushEveryMs?: number;
  /** Accounts written per flush statement. Default: 32. */
  flushSlice?: number;
  /**
   * Accounts remembered at most; the least recently used ones with nothing
   * pending are forgotten first (they are read again when they come back).
   * Default: 100,000 (about 15 MB).
   */
  maxAccounts?: number;
}

interface DayCount {
  day: string;
  /**
   * The shared count last read from the database. Counts only grow within a
   * day, so this is a lower bound of the true count: once it leaves no room
   * for a request, the refusal can be answered from memory.
   */
  stored: number;
  /** Counted here and not yet flushed. */
  pending: number;
}

/** Entries looked at per insertion when the map is full. */
const EVICTION_SCAN = 64;

/**
 * Daily request allowance per account (UTC day).
 *
 * Far from the limit, counts are kept in memory and flushed in batches (one
 * statement for all accounts per interval), so a warm request never waits on
 * the database. Within `exactBelow` of the limit each request increments the
 * shared row with a guarded UPDATE, so the limit holds exactly even across
 * processes. Once the shared count leaves no room, refusals are answered from
 * memory until the day, the plan or the account changes: a spent key's flood
 * costs no database round trips. The margin: while an account is far from its
 * limit, other processes' unflushed counts (at most one flush interval's
 * worth) are unseen here; they are all seen before the exact zone is left, so
 * the overshoot is bounded by the requests made in one flush interval by
 * other processes, and is zero with one process.
 */
export function createMetering({ db, clock, bus, exactBelow = 100, flushEveryMs = 1000, flushSlice = 32, maxAccounts = 100_000 }: MeteringOptions) {
  // Map order is recency order: an entry is moved to the end when used.
  const counts = new Map<string, DayCount>();
  let flushing: Promise<void> | null = null;

  bus?.subscribe((e) => {
    if (e.type !== 'account.changed') return;
    const c = counts.get(e.accountId);
    // Pending counts were answered already and must still be written.
    if (c && c.pending === 0) counts.delete(e.accountId);
  });

  function entry(accountId: string, day: string): DayCount | undefined {
    const c = counts.get(accountId);
    return c && c.day === day ? c : undefined;
  }

  /** Forgets the least recently used accounts with nothing pending; false when that made no room. */
  function makeRoom(): boolean {
    let looked = 0;
    for (const [id, old] of counts) {
      if (counts.size < maxAccounts || looked++ >= EVICTION_SCAN) break;
      if (old.pending === 0) counts.delete(id);
    }
    return counts.size < maxAccounts;
  }

  /** Adds a new account to a full map; returns the entry to count on. */
  async function remember(accountId: string, c: DayCount): Promise<DayCount> {
    // Everything looked at is waiting to be written: write it, then it can go
    // (once; if the database is failing, the map stays over its bound a while).
    if (!makeRoom()) {
      await startFlush();
      makeRoom();
    }
    // Another request for this account may have added it meanwhile: keep one entry.
    const current = entry(accountId, c.day) ?? c;
    counts.delete(accountId);
    counts.set(accountId, current);
    return current;
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

  /** One statement for a slice of pending counts; on failure they stay pending. */
  async function write(work: [string, DayCount, number][]): Promise<void> {
    let rows: { account_id: string; day: string; count: number }[];
    try {
      rows = await db.$queryRaw<{ account_id: string; day: string; count: number }[]>`
        INSERT INTO request_counters (account_id, day, count)
        SELECT * FROM unnest(${work.map((w) => w[0])}::uuid[], ${work.map((w) => w[1].day)}::date[], ${work.map((w) => w[2])}::int[])
        ON CONFLICT (account_id, day) DO UPDATE SET count = request_counters.count + EXCLUDED.count
        RETURNING account_id::text AS account_id, to_char(day, 'YYYY-MM-DD') AS day, count`;
    } catch (err) {
      for (const [, c, delta] of work) c.pending += delta;
      throw err;
    }
    const totals = new Map(rows.map((r) => [`${r.account_id}/${r.day}`, r.count]));
    for (const [accountId, c] of work) {
      const total = totals.get(`${accountId}/${c.day}`);
      if (total !== undefined && counts.get(accountId) === c) c.stored = total - c.pending;
    }
  }

  /**
   * Every pending count, `flushSlice` accounts per statement: the cost of a
   * flush does not grow with round trips per account, and on the embedded
   * database (which runs on the event loop) no single statement holds
   * requests back for long: the loop turns between slices.
   */
  async function flush(): Promise<void> {
    const work: [string, DayCount, number][] = [];
    for (const [accountId, c] of counts) {
      if (c.pending > 0) {
        work.push([accountId, c, c.pending]);
        c.pending = 0;
      }
    }
    for (let i = 0; i < work.length; i += flushSlice) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        await write(work.slice(i, i + flushSlice));
      } catch (err) {
        // The rest were taken out of pending too: put them back before giving up.
        for (const [, c, delta] of work.slice(i + flushSlice)) c.pending += delta;
        throw err;
      }
    }
    const today = utcDay(clock.now());
    for (const [id, c] of counts) if (c.day !== today && c.pending === 0) counts.delete(id);
    // Over the bound because everything was pending: now it is written, forget the oldest.
    for (const [id, c] of counts) {
      if (counts.size <= maxAccounts) break;
      if (c.pending === 0) counts.delete(id);
    }
  }

  function startFlush(): Promise<void> {
    flushing ??= flush()
      .catch(() => undefined)
      .finally(() => (flushing = null));
    return flushing;
  }

  /** The warm path, counted in memory: see `takeKnown` in the returned object. */
  function takeKnown(actor: Actor, cost = 1): MeterResult | undefined {
    const c = entry(actor.accountId, utcDay(clock.now()));
    if (!c) return undefined;
    const limit = plans[actor.plan].dailyRequests;
    const used = c.stored + c.pending;
    const far = limit - used - cost >= exactBelow;
    // Spent: the shared count only grows today, so the answer is known without asking.
    const spent = !far && c.pending === 0 && c.stored + cost > limit;
    if (!far && !spent) return undefined;
    // Most recently used last: delete and set again.
    counts.delete(actor.accountId);
    counts.set(actor.accountId, c);
    if (spent) return { allowed: false, limit, remaining: Math.max(0, limit - c.stored) };
    c.pending += cost;
    return { allowed: true, limit, remaining: limit - used - cost };
  }

  /** `take` for an account not counted here yet today, or near its limit: reads or counts in the database. */
  async function takeReading(actor: Actor, cost: number): Promise<MeterResult> {
    const limit = plans[actor.plan].dailyRequests;
    const day = utcDay(clock.now());
    let c = entry(actor.accountId, day);
    if (!c) {
      c = { day, stored: await readStored(actor.accountId, day), pending: 0 };
      // Another request for this account may have read it meanwhile: keep one entry.
      c = entry(actor.accountId, day) ?? c;
    }
    if (counts.size < maxAccounts || counts.has(actor.accountId)) {
      // Most recently used last: delete and set again.
      counts.delete(actor.accountId);
      counts.set(actor.accountId, c);
    } else {
      c = await remember(actor.accountId, c);
    }
    // Far from the limit, or spent: counted in memory, now that today's count is here.
    const known = takeKnown(actor, cost);
    if (known) return known;
    // Near the limit: settle what is pending and count exactly in the database.
    const pending = c.pending;
    c.pending = 0;
    const total = pending + cost <= limit ? await takeExact(actor.accountId, day, limit, pending + cost) : null;
    if (total === null) {
      // The pending requests were already answered: record them anyway.
      const stored = pending > 0 ? await addStored(actor.accountId, day, pending) : await readStored(actor.accountId, day);
      c.stored = Math.max(c.stored, stored);
      return { allowed: false, limit, remaining: Math.max(0, limit - stored) };
    }
    c.stored = Math.max(c.stored, total);
    return { allowed: true, limit, remaining: Math.max(0, limit - total) };
  }

  const timer = setInterval(() => void startFlush(), flushEveryMs);
  timer.unref();

  return {
    /**
     * Counts `cost` requests (a GraphQL operation costs one per root field)
     * against the actor's allowance for today.
     */
    async take(actor: Actor, cost = 1): Promise<MeterResult> {
      return takeKnown(actor, cost) ?? takeReading(actor, cost);
    },

    /**
     * `take` without waiting, for an account counted here today and far from
     * its limit (the door's warm path); `undefined` when the count needs the
     * database, and nothing is counted then.
     */
    takeKnown,

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

    /** Accounts currently remembered (bounded by `maxAccounts`). */
    size(): number {
      return counts.size;
    },

    stop(): void {
      clearInterval(timer);
    },
  };
}

export type Metering = ReturnType<typeof createMetering>;
