import type { PrismaClient } from '../../generated/prisma/client.js';

/** A charge's (or its refund's) reason, from the ledger reference's shape (see ledger.ts and its callers). */
const REASON = `CASE
    WHEN ref LIKE 'unlock:%' THEN 'unlock'
    WHEN ref LIKE 'job:%:premium' THEN 'fast_premium'
    WHEN ref LIKE 'job:%' THEN 'transcription'
    WHEN ref LIKE 'aisearch:%' THEN 'ai_search'
    ELSE 'other' END`;

/**
 * How long a missing ledger id is looked for again, in ms: 10 minutes. A
 * ledger transaction lasts at most 30 s (inTransaction's timeout), so an id
 * still missing after this was rolled back (a posting repeated with a taken
 * reference, a refused charge) and will never appear.
 */
export const LATE_ENTRY_WAIT_MS = 10 * 60_000;

/** Most missing ids remembered at once; the oldest are dropped first. Default: 10,000. */
const MAX_LATE_IDS = 10_000;

/** How far below the newest id a first read looks for missing ones. */
const FIRST_READ_GAP_WINDOW = 10_000;

const parseIds = (list: string): bigint[] => (list.length > 2 ? list.slice(1, -1).split(',').map((s) => BigInt(s)) : []);

export interface CreditSums {
  kind: string;
  reason: string;
  credits: number;
}

/**
 * Reads the credits charged and refunded since the last read, each ledger
 * entry exactly once. An entry's id is taken when it is inserted, not when
 * its transaction commits (PostgreSQL, several connections), so an entry can
 * become visible after a higher one was read: the ids missing below the
 * newest one read are remembered and looked for again on the next reads, for
 * `LATE_ENTRY_WAIT_MS`. The first read counts the whole ledger.
 */
export function ledgerCreditReader(db: PrismaClient, now: () => number = Date.now) {
  let lastId = -1n;
  // Missing id → when it was first found missing (ms).
  const late = new Map<bigint, number>();
  return async function readNewCredits(): Promise<CreditSums[]> {
    const pending = `{${[...late.keys()].join(',')}}`;
    // One statement, so one snapshot: an entry is either read or found missing, never neither.
    const [row] = await db.$queryRawUnsafe<{ counts: string; top: string; gaps: string; found: string }[]>(
      `WITH fresh AS (
         SELECT id, kind, amount, regexp_replace(reference, '^refund:', '') AS ref FROM ledger_entries
         WHERE id > $1::bigint OR id = ANY($2::bigint[])
       ), top AS (SELECT greatest(max(id), $1::bigint) AS id FROM fresh WHERE id > $1::bigint)
       SELECT
         (SELECT coalesce(json_agg(c), '[]')::text FROM (
            SELECT kind, ${REASON} AS reason, sum(abs(amount))::bigint AS credits
            FROM fresh WHERE kind IN ('charge', 'refund') GROUP BY 1, 2) c) AS counts,
         (SELECT coalesce(id, $1::bigint)::text FROM top) AS top,
         (SELECT coalesce(array_agg(g), '{}')::text FROM top,
            generate_series(greatest($1::bigint + 1, top.id - $3::bigint), top.id) g
            WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = g)) AS gaps,
         (SELECT coalesce(array_agg(id), '{}')::text FROM fresh WHERE id = ANY($2::bigint[])) AS found`,
      lastId,
      pending,
      lastId < 0n ? FIRST_READ_GAP_WINDOW : Number.MAX_SAFE_INTEGER,
    );
    const at = now();
    for (const id of parseIds(row!.found)) late.delete(id);
    for (const id of parseIds(row!.gaps)) late.set(id, at);
    for (const [id, since] of late) if (at - since > LATE_ENTRY_WAIT_MS || late.size > MAX_LATE_IDS) late.delete(id);
    lastId = BigInt(row!.top);
    return (JSON.parse(row!.counts) as CreditSums[]).map((c) => ({ ...c, credits: Number(c.credits) }));
  };
}
