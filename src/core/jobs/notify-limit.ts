import { secondsToNextUtcDay } from '../clock.js';
import { DomainError } from '../errors.js';
import type { Tx } from '../transaction.js';

/** Jobs a day (UTC) an account may have mail an address other than its own. */
export const OTHER_ADDRESS_JOBS_PER_DAY = 50;

/**
 * A job may announce its completion to any address (`email`), with titles
 * the requester chose, and joining an episode the key already waits for
 * costs nothing: without a bound, a key could send mail to strangers for
 * free. Mail to the account's own address is not bounded, and neither is a
 * request that makes no job (only episodes already transcribed): it mails no one.
 * Call it with the account row locked, so concurrent requests count each other.
 * @throws DomainError `rate_limited` (429, Retry-After to 00:00 UTC) naming `email`.
 */
export async function checkOtherAddressQuota(db: Tx, accountId: string, accountEmail: string, notify: string, now: Date): Promise<void> {
  if (notify.toLowerCase() === accountEmail.toLowerCase()) return;
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const sent = await db.job.count({ where: { accountId, createdAt: { gte: midnight }, NOT: { notifyEmail: { equals: accountEmail, mode: 'insensitive' } } } });
  if (sent >= OTHER_ADDRESS_JOBS_PER_DAY) {
    throw new DomainError(
      'rate_limited',
      `email: at most ${OTHER_ADDRESS_JOBS_PER_DAY} jobs a day may notify an address other than the account's own; leave email out (your own address is not limited) or try again after 00:00 UTC. Nothing was charged or queued.`,
      { retryAfter: secondsToNextUtcDay(now), field: 'email' },
    );
  }
}
