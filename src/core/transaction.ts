import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type Tx = Prisma.TransactionClient;

/** True for a unique-constraint violation, however the driver adapter reports it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { kind?: string; code?: string } } }; message?: string };
  if (e?.code === 'P2002' || e?.code === '23505') return true;
  const cause = e?.meta?.driverAdapterError?.cause;
  if (cause?.kind === 'UniqueConstraintViolation' || cause?.code === '23505' || e?.meta?.code === '23505') return true;
  return /unique constraint|23505/i.test(e?.message ?? '');
}

function isRetryable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return isUniqueViolation(err) || e?.code === 'P2034' || /40001|40P01|could not serialize|deadlock/i.test(e?.message ?? '');
}

/**
 * Runs `fn` in one transaction, retrying a few times when it lost a race
 * (a unique reference taken by a concurrent writer, a serialisation failure):
 * the retry then sees the winner's row and answers idempotently.
 */
export async function inTransaction<T>(db: PrismaClient, fn: (tx: Tx) => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await db.$transaction(fn, { maxWait: 20_000, timeout: 30_000 });
    } catch (err) {
      if (i >= attempts || !isRetryable(err)) throw err;
    }
  }
}
