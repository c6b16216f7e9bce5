import type { TestPodtext } from '../../support/podtext.js';
import { waitFor } from './wait.js';

export type Wire = Record<string, any>;

/** POST /requests, answering status and body. */
export async function postRequest(t: TestPodtext, key: string, body: unknown): Promise<{ status: number; body: Wire }> {
  const res = await t.api('POST', '/requests', { key, body });
  return { status: res.status, body: (await res.json()) as Wire };
}

export async function getJob(t: TestPodtext, key: string, id: string): Promise<Wire> {
  const res = await t.api('GET', `/jobs/${id}`, { key });
  if (res.status !== 200) throw new Error(`GET /jobs/${id}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Wire;
}

/** Polls the job until it is done. */
export function jobDone(t: TestPodtext, key: string, id: string, timeoutMs = 60_000): Promise<Wire> {
  return waitFor(async () => {
    const job = await getJob(t, key, id);
    return job.status === 'done' ? job : undefined;
  }, timeoutMs, `job ${id} to be done`, 200);
}

/** Ledger entries of an account whose reference starts with `prefix`. */
export async function ledger(t: TestPodtext, accountId: string, prefix = '') {
  return t.podtext.services.db.ledgerEntry.findMany({ where: { accountId, reference: { startsWith: prefix } }, orderBy: { id: 'asc' } });
}
