import { Counter, Gauge, type Registry } from 'prom-client';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { deadline } from '../deadline.js';
import { ledgerCreditReader } from './ledger-credits.js';
import { fromZero } from './metrics.js';

export interface DbGaugeSources {
  db: PrismaClient;
  /** Shows in this process's name index (0 until it has loaded; worker processes never load it). */
  searchIndexSize(): number;
  /** Connections of this process's PostgreSQL pool; absent on PGlite (one embedded session). */
  pool?: () => { total: number; idle: number; waiting: number };
}

/** Longest a scrape waits for the database. */
const READ_TIMEOUT_MS = 2_000;

/**
 * A scrape still answers while the database does not (that is when the
 * process's own figures matter most): a gauge it could not read is left out,
 * a counter keeps its last figures, and `podtext_database_up` says 0.
 */
function guarded<M extends Gauge | Counter>(metric: M, onFailure: 'leave out' | 'keep'): M {
  const slot = metric as unknown as { collect: () => Promise<void> };
  const read = slot.collect.bind(metric);
  slot.collect = async () => {
    try {
      await deadline(read(), READ_TIMEOUT_MS, 'the database');
    } catch {
      if (onFailure === 'leave out') metric.reset();
    }
  };
  return metric;
}

/**
 * Metrics read from the database at scrape time, so that every process (API
 * or worker) reports the same queue, whoever claimed what. Only live rows are
 * counted: queued/running tasks and queued/processing jobs sit in small
 * partial indexes; finished ones are pruned (queue-upkeep.ts).
 */
export function registerDbGauges(registry: Registry, sources: DbGaugeSources): void {
  const { db } = sources;
  const registers = [registry];

  new Gauge({
    name: 'podtext_database_up',
    help: '1 when the database answered this scrape within 2 s, else 0 (the gauges read from it are then left out).',
    registers,
    async collect() {
      this.set(await deadline(db.$queryRaw`SELECT 1`, READ_TIMEOUT_MS, 'the database').then(() => 1, () => 0));
    },
  });

  guarded(new Gauge({
    name: 'podtext_jobs',
    help: 'Jobs not yet done, by state (queued, processing) and lane (standard, fast), across all processes.',
    labelNames: ['state', 'lane'] as const,
    registers,
    async collect() {
      const rows = await db.$queryRaw<{ status: string; fast: boolean; n: bigint }[]>`
        SELECT status, fast, count(*) AS n FROM jobs WHERE status IN ('queued', 'processing') GROUP BY status, fast`;
      this.reset();
      for (const state of ['queued', 'processing']) for (const lane of ['standard', 'fast']) this.set({ state, lane }, 0);
      for (const r of rows) this.set({ state: r.status, lane: r.fast ? 'fast' : 'standard' }, Number(r.n));
    },
  }), 'leave out');

  guarded(new Gauge({
    name: 'podtext_tasks',
    help: 'Transcription tasks waiting or running, by state (queued; running; split: waiting on its chunks; expired: running with a lease that ran out) and lane.',
    labelNames: ['state', 'lane'] as const,
    registers,
    async collect() {
      const rows = await db.$queryRaw<{ state: string; lane: string; n: bigint }[]>`
        SELECT CASE WHEN status = 'running' AND stage = 'chunks' THEN 'split' WHEN status = 'running' AND lease_until < now() THEN 'expired' ELSE status END AS state,
          lane, count(*) AS n
        FROM transcription_tasks WHERE status IN ('queued', 'running') GROUP BY 1, 2`;
      this.reset();
      for (const state of ['queued', 'running', 'split', 'expired']) for (const lane of ['standard', 'fast']) this.set({ state, lane }, 0);
      for (const r of rows) this.set({ state: r.state, lane: r.lane }, Number(r.n));
    },
  }), 'leave out');

  guarded(new Gauge({
    name: 'podtext_chunks',
    help: 'Chunks of split tasks waiting or being transcribed, by state (queued, running) and lane of the engine that runs them.',
    labelNames: ['state', 'lane'] as const,
    registers,
    async collect() {
      const rows = await db.$queryRaw<{ status: string; lane: string; n: bigint }[]>`
        SELECT status, lane, count(*) AS n FROM transcription_chunks WHERE status IN ('queued', 'running') GROUP BY 1, 2`;
      this.reset();
      for (const state of ['queued', 'running']) for (const lane of ['standard', 'fast']) this.set({ state, lane }, 0);
      for (const r of rows) this.set({ state: r.status, lane: r.lane }, Number(r.n));
    },
  }), 'leave out');

  guarded(new Gauge({
    name: 'podtext_task_oldest_queued_seconds',
    help: 'Age of the oldest queued transcription task that is due now, by lane, in seconds (0 when none).',
    labelNames: ['lane'] as const,
    registers,
    async collect() {
      const rows = await db.$queryRaw<{ lane: string; age: number | null }[]>`
        SELECT lane, extract(epoch FROM now() - min(created_at))::float8 AS age
        FROM transcription_tasks WHERE status = 'queued' AND next_attempt_at <= now() GROUP BY lane`;
      this.reset();
      for (const lane of ['standard', 'fast']) this.set({ lane }, 0);
      for (const r of rows) this.set({ lane: r.lane }, Math.max(0, Number(r.age ?? 0)));
    },
  }), 'leave out');

  guarded(new Gauge({
    name: 'podtext_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for a first or a further attempt, across all processes.',
    registers,
    async collect() {
      const rows = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`;
      this.set(Number(rows[0]?.n ?? 0));
    },
  }), 'leave out');

  // Credits: the ledger is the truth (a charge in a transaction that rolled
  // back never happened). Each scrape adds the entries posted since the last
  // one, so the counters cover the whole deployment since this process's
  // first scrape began reading: read them from one process, do not sum.
  const readNewCredits = ledgerCreditReader(db);
  let reading: Promise<void> | null = null;
  guarded(fromZero(new Counter({
    name: 'podtext_credits_total',
    help: 'Credits charged and refunded across the deployment, by kind (charge, refund) and reason (unlock, transcription, fast_premium, ai_search, other), read from the ledger.',
    labelNames: ['kind', 'reason'] as const,
    registers,
    async collect() {
      const read = async () => {
        for (const c of await readNewCredits()) this.inc({ kind: c.kind, reason: c.reason }, c.credits);
      };
      // One read at a time: two scrapes at once must not count an entry twice.
      reading ??= read().finally(() => (reading = null));
      await reading;
    },
  }), ['charge', 'refund'].flatMap((kind) => ['unlock', 'transcription', 'fast_premium', 'ai_search', 'other'].map((reason) => ({ kind, reason })))), 'keep');

  new Gauge({
    name: 'podtext_search_index_shows',
    help: "Shows in this process's in-memory name index.",
    registers,
    collect() {
      this.set(sources.searchIndexSize());
    },
  });

  const pool = sources.pool;
  if (pool) {
    new Gauge({
      name: 'podtext_db_pool_connections',
      help: "This process's PostgreSQL connections, by state (in_use, idle, waiting: callers waiting for one).",
      labelNames: ['state'] as const,
      registers,
      collect() {
        const p = pool();
        this.set({ state: 'in_use' }, p.total - p.idle);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
      },
    });
  }
}
