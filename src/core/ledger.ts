import { DomainError, invalid } from './errors.js';
import type { Tx } from './transaction.js';

export type LedgerKind = 'grant' | 'charge' | 'refund' | 'cycle_reset';

export interface LedgerRow {
  id: bigint;
  accountId: string;
  kind: LedgerKind;
  amount: number;
  balanceAfter: number;
  reference: string;
  refundOf: bigint | null;
  memo: string;
  createdAt: Date;
}

export interface Posting {
  accountId: string;
  kind: LedgerKind;
  /** Signed credits: positive adds, negative takes. */
  amount: number;
  /** Unique idempotency reference: posting the same reference twice posts once. */
  reference: string;
  memo: string;
  refundOf?: bigint;
}

export interface Posted {
  entry: LedgerRow;
  /** True when this reference had already been posted; nothing changed. */
  duplicate: boolean;
}

async function byReference(tx: Tx, reference: string): Promise<LedgerRow | null> {
  return (await tx.ledgerEntry.findUnique({ where: { reference } })) as LedgerRow | null;
}

/**
 * Appends one entry and moves the balance in the caller's transaction. The
 * balance can never go below zero: a charge larger than the balance throws
 * `insufficient_credits` and changes nothing.
 */
/** Largest balance an account can hold, and so the largest grant: the columns are 32-bit integers. */
export const MAX_BALANCE = 2_147_483_647;

export async function post(tx: Tx, p: Posting): Promise<Posted> {
  if (!Number.isInteger(p.amount)) throw new RangeError('Ledger amounts are whole credits');
  const existing = await byReference(tx, p.reference);
  if (existing) return { entry: existing, duplicate: true };
  const updated = await tx.$queryRaw<{ credits: number }[]>`
    UPDATE accounts SET credits = credits + ${p.amount}
    WHERE id = ${p.accountId}::uuid AND credits::bigint + ${p.amount} BETWEEN 0 AND ${MAX_BALANCE}
    RETURNING credits`;
  if (updated.length === 0) {
    const account = await tx.account.findUnique({ where: { id: p.accountId }, select: { credits: true } });
    if (!account) throw new DomainError('not_found', 'No such account');
    // Checked in the same guarded UPDATE, so two grants at once cannot pass it together.
    if (p.amount > 0) throw invalid('credits', `the balance (${account.credits}) may grow to at most ${MAX_BALANCE}`);
    throw new DomainError(
      'insufficient_credits',
      `This needs ${-p.amount} credit${p.amount === -1 ? '' : 's'}; the balance is ${account.credits}.`,
      { required: -p.amount, available: account.credits },
    );
  }
  const entry = (await tx.ledgerEntry.create({
    data: {
      accountId: p.accountId,
      kind: p.kind,
      amount: p.amount,
      balanceAfter: updated[0]!.credits,
      reference: p.reference,
      refundOf: p.refundOf ?? null,
      memo: p.memo,
    },
  })) as LedgerRow;
  return { entry, duplicate: false };
}

/** Takes `credits` from the balance. */
export function charge(tx: Tx, accountId: string, credits: number, reference: string, memo: string): Promise<Posted> {
  if (credits <= 0) throw new RangeError('A charge takes at least one credit');
  return post(tx, { accountId, kind: 'charge', amount: -credits, reference, memo });
}

/** Adds `credits` to the balance. */
export function grant(tx: Tx, accountId: string, credits: number, reference: string, memo: string): Promise<Posted> {
  if (credits <= 0) throw new RangeError('A grant adds at least one credit');
  return post(tx, { accountId, kind: 'grant', amount: credits, reference, memo });
}

/**
 * Gives back (part of) a charge, at most once per charge: the refund's
 * reference is derived from the charge, and `refund_of` is unique.
 * @param credits default: the whole charge.
 */
export async function refund(tx: Tx, chargeReference: string, memo: string, credits?: number): Promise<Posted | null> {
  const original = await byReference(tx, chargeReference);
  if (!original || original.kind !== 'charge') return null;
  const amount = Math.min(credits ?? -original.amount, -original.amount);
  if (amount <= 0) return null;
  return post(tx, {
    accountId: original.accountId,
    kind: 'refund',
    amount,
    reference: `refund:${chargeReference}`,
    refundOf: original.id,
    memo,
  });
}

/**
 * Starts a billing cycle: the balance becomes the plan's allowance (no
 * rollover), as one entry whose reference names the cycle, so running it twice
 * changes nothing.
 */
export async function resetCycle(tx: Tx, accountId: string, allowance: number, cycleKey: string): Promise<Posted> {
  const reference = `cycle:${accountId}:${cycleKey}`;
  const existing = await byReference(tx, reference);
  if (existing) return { entry: existing, duplicate: true };
  const [row] = await tx.$queryRaw<{ credits: number }[]>`SELECT credits FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
  if (!row) throw new DomainError('not_found', 'No such account');
  return post(tx, { accountId, kind: 'cycle_reset', amount: allowance - row.credits, reference, memo: `Billing cycle ${cycleKey}: balance set to ${allowance}` });
}
