import { createLanePool } from '../core/webhooks/lane-pool.js';
import type { WebhookService } from '../core/webhooks/webhook-service.js';
import type { EventBus } from '../infra/events/event-bus.js';
import { loopFailures } from '../infra/db/loop-failures.js';
import type { Logger } from '../infra/logger.js';

/** How often expired test inboxes are deleted, in ms. Default: 10 minutes. */
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Sends webhooks until `signal` aborts. Wakes at once when a job turns done in
 * any process (`job.updated` with status `done` on the bus) or on
 * `webhooks.notify()`, and every `pollMs` for retries that came due. Several
 * processes may run this on one PostgreSQL: rows are claimed with SKIP LOCKED.
 * Resolves once the attempts in flight have been cut short and handed back.
 */
export async function runWebhookDelivery(
  deps: { webhooks: WebhookService; bus: EventBus; log: Logger },
  signal: AbortSignal,
): Promise<void> {
  const { webhooks, bus, log } = deps;
  const deliveryFailed = loopFailures(log, 'webhook delivery failed');
  const purgeFailed = loopFailures(log, 'purging expired webhook inboxes failed');
  const pool = createLanePool(webhooks.settings.concurrency, (claimed) => webhooks.sendNext(signal, claimed), {
    stopped: () => signal.aborted,
    // A failed lane (e.g. the database away) is logged; the next tick tries again.
    onError: (err) => {
      if (!signal.aborted) deliveryFailed(err);
    },
  });
  const kick = (): void => pool.kick();
  const offBus = bus.subscribe((e) => {
    if (e.type === 'job.updated' && e.status === 'done') kick();
  });
  const offNotify = webhooks.onNotify(kick);
  let lastPurge = 0;
  const tick = (): void => {
    kick();
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    webhooks.purgeExpiredInboxes().catch(purgeFailed);
  };
  const timer = setInterval(tick, webhooks.settings.pollMs);
  tick();
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(timer);
  offBus();
  offNotify();
  await pool.idle();
}
