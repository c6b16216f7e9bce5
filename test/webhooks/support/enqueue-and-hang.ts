// A Podtext process that marks a job done (the delivery row committed) and then
// hangs without sending, so that a test can kill it with SIGKILL at that point.
// Usage: node --import tsx enqueue-and-hang.ts <json: {env, webhookUrl, template?}>
import { readFile } from 'node:fs/promises';
import { boot } from '../../../src/boot.js';
import { loadConfig } from '../../../src/config.js';
import { inTransaction } from '../../../src/core/transaction.js';
import { jobPayload } from './jobs.js';

const { env, webhookUrl, template } = JSON.parse(process.argv[2]!) as { env: Record<string, string>; webhookUrl: string; template?: string };
// A fresh PGlite directory starts from the migrated template, as in every test.
const podtext = await boot(loadConfig(env), template ? { pgliteTemplate: new Blob([await readFile(template)]) } : {});
const { db, clock, webhooks, links } = podtext.services;
const accountId = crypto.randomUUID();
const payload = jobPayload(crypto.randomUUID(), links.site);
const deliveryId = await inTransaction(db, async (tx) => {
  await tx.account.create({ data: { id: accountId, email: `${accountId}@example.com`, cycleStartedAt: clock.now() } });
  return webhooks.enqueueJobDone(tx, { jobId: payload.id, accountId, webhookUrl, payload });
});
process.stdout.write(`${JSON.stringify({ accountId, jobId: payload.id, deliveryId })}\n`);
setInterval(() => undefined, 60_000);
