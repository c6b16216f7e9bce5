import { randomUUID } from 'node:crypto';
import type { JobDonePayload } from '../../../src/core/webhooks/delivery-log.js';
import { inTransaction } from '../../../src/core/transaction.js';
import type { Services } from '../../../src/core/services.js';

/** A finished job as the jobs module hands it over: two episodes, both ready. */
export function jobPayload(jobId: string = randomUUID(), site = 'http://podtext.test'): JobDonePayload {
  const episodes = ['3f9a0c1b2d4e5f60', 'a1b2c3d4e5f60718'].map((transcriptId, i) => ({
    transcript_id: transcriptId,
    title: `Episode ${i + 1}: Ünïcode — and "quotes"`,
    status: 'ready' as const,
    url: `${site}/t/${transcriptId}`,
    transcript_url: `${site}/api/v1/transcripts/${transcriptId}`,
  }));
  return { id: jobId, status: 'done', poll_url: `${site}/api/v1/jobs/${jobId}`, episodes, done: 2, total: 2 };
}

/** Marks a job done the way the jobs module will: the enqueue inside a committed transaction. */
export async function finishJob(services: Services, accountId: string, webhookUrl: string, jobId: string = randomUUID()): Promise<{ jobId: string; deliveryId: string }> {
  const payload = jobPayload(jobId, services.links.site);
  const deliveryId = await inTransaction(services.db, (tx) => services.webhooks.enqueueJobDone(tx, { jobId, accountId, webhookUrl, payload }));
  return { jobId, deliveryId: deliveryId! };
}
