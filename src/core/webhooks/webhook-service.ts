import type { PrismaClient } from '../../generated/prisma/client.js';
import { endpointKey } from '../../infra/outbound/address-guard.js';
import type { Resolver } from '../../infra/outbound/guarded-lookup.js';
import { createOutboundClient } from '../../infra/outbound/outbound-client.js';
import { OutboundError } from '../../infra/outbound/outbound-error.js';
import type { Logger } from '../../infra/logger.js';
import type { SecretBox } from '../../infra/secret-box.js';
import type { Actor } from '../accounts/actor.js';
import type { Clock } from '../clock.js';
import type { Links } from '../links.js';
import { invalid } from '../errors.js';
import { createDeliveryClaims, type ClaimedDelivery } from './delivery-claims.js';
import { createDeliveryLog } from './delivery-log.js';
import { createLanePool } from './lane-pool.js';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt } from './retry-schedule.js';
import { sendAttempt } from './send-attempt.js';
import { tracing } from '../../infra/tracing/tracing.js';
import { SIGNATURE_HEADER, SIGNATURE_SCHEME } from './signature.js';
import { createTestInboxes } from './test-inbox.js';
import { createWebhookSecrets } from './webhook-secrets.js';
import { checkWebhookUrl, isOwnInboxUrl, ownInboxId } from './webhook-url.js';

/**
 * Claims of one delivery that may end without a result (a crash, a shutdown,
 * an internal error) before it is given up, so one broken row cannot keep a
 * worker busy forever.
 */
const MAX_CLAIMS_WITHOUT_RESULT = 20;

/** How webhooks are sent. Every field is optional. */
export interface WebhookSettings {
  /** `host:port` endpoints exempt from the private-address guard (OUTBOUND_ALLOW). Default: none. */
  allow?: string[];
  /** Seconds to wait after each failed attempt; after the last, delivery stops (WEBHOOK_RETRY_SCHEDULE). Default: 60,300,900,3600,14400. */
  retrySchedule?: readonly number[];
  /** Time for a whole attempt (connect, send, answer), in ms; slower is a failure. Default: 30000. */
  timeoutMs?: number;
  /** Extra trusted CA certificate(s), PEM. Default: none (Node's store, which honours NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
  /** Name resolution at connect time. Default: the system resolver. */
  resolve?: Resolver;
  /** Deliveries one process sends at once. Default: 8. */
  concurrency?: number;
  /** How often the delivery loop looks for due retries, in ms. Default: 1000. */
  pollMs?: number;
  /** Told of every attempt's outcome (metrics): `dropped` when the lease had run out. Default: none. */
  onAttempt?: (outcome: 'delivered' | 'failed' | 'dropped', attempt: number) => void;
}

export interface WebhookServiceDeps {
  db: PrismaClient;
  box: SecretBox;
  clock: Clock;
  links: Links;
  log: Logger;
  settings?: WebhookSettings;
}

/**
 * Webhooks: signing secrets, `job.done` deliveries (durable rows, claimed by
 * workers with a lease and fenced by claim number), and hosted test inboxes.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, clock, links, log } = deps;
  const s = deps.settings ?? {};
  const settings = {
    retrySchedule: s.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    timeoutMs: s.timeoutMs ?? 30_000,
    concurrency: s.concurrency ?? 8,
    pollMs: s.pollMs ?? 1000,
  };
  // The lease must outlast the slowest attempt, or a second worker would send it again.
  const leaseSeconds = Math.ceil(settings.timeoutMs / 1000) + 90;
  const userAgent = 'Podtext-Webhooks/0.1';
  const clientOptions = { ca: s.ca, resolve: s.resolve, userAgent };
  const client = createOutboundClient({ ...clientOptions, allow: s.allow });
  // This Podtext's own inboxes: its own endpoint may be private (localhost, a LAN address).
  // A site on port 0 (an unset PORT=0) names no endpoint to exempt.
  const site = new URL(links.site);
  const ownEndpoint = site.port === '0' ? [] : [endpointKey(site)];
  const ownClient = createOutboundClient({ ...clientOptions, allow: [...(s.allow ?? []), ...ownEndpoint] });

  const secrets = createWebhookSecrets({ db, box: deps.box, clock });
  const deliveries = createDeliveryLog({ db, clock });
  const claims = createDeliveryClaims(db);
  const inboxes = createTestInboxes({ db, clock, links });
  const listeners = new Set<() => void>();

  function isOwnInbox(url: string): boolean {
    try {
      return isOwnInboxUrl(new URL(url), links.site);
    } catch {
      return false;
    }
  }

  /** One attempt in its own span, so that its POST, its queries and its log line share a trace. */
  function attempt(d: ClaimedDelivery, signal?: AbortSignal): Promise<void> {
    const attributes = { 'podtext.webhook.event': d.event, 'podtext.webhook.delivery_id': d.id, 'podtext.job.id': d.jobId, 'podtext.webhook.attempt': d.tries + 1 };
    return tracing().inSpan(`webhook ${d.event}`, { attributes }, async (span) => {
      const delivered = await attemptOnce(d, signal);
      span.setAttributes({ 'podtext.webhook.delivered': delivered });
      if (!delivered) span.fail('not delivered');
    });
  }

  async function attemptOnce(d: ClaimedDelivery, signal?: AbortSignal): Promise<boolean> {
    const own = isOwnInbox(d.url);
    const at = clock.now();
    const result =
      d.claim - d.tries > MAX_CLAIMS_WITHOUT_RESULT
        ? { at, statusCode: null, error: `stopped: ${MAX_CLAIMS_WITHOUT_RESULT} claims ended without a result`, durationMs: 0, delivered: false, permanent: true }
        : await sendAttempt(d, {
            client: own ? ownClient : client,
            secrets: await secrets.signingSecrets(d.accountId, at, d.secrets),
            at,
            timeoutMs: settings.timeoutMs,
            httpsOnly: !own,
            signal,
            userAgent,
          });
    const recorded = await claims.record(d, result, nextAttemptAt(settings.retrySchedule, d.tries + 1, at));
    const facts = { deliveryId: d.id, jobId: d.jobId, accountId: d.accountId, status: result.statusCode, durationMs: result.durationMs };
    s.onAttempt?.(!recorded ? 'dropped' : result.delivered ? 'delivered' : 'failed', d.tries + 1);
    if (!recorded) log.warn(facts, 'webhook result dropped: the lease ran out and another worker holds the delivery');
    else if (result.delivered) log.info(facts, 'webhook delivered');
    else log.warn({ ...facts, error: result.error }, 'webhook attempt failed');
    return recorded && result.delivered;
  }

  /**
   * Claims one due delivery and attempts it; false when none is due. A
   * shutdown mid-attempt or a database failure hands the row back untouched.
   */
  async function sendNext(signal?: AbortSignal, claimed?: () => void): Promise<boolean> {
    if (signal?.aborted) return false;
    const d = await claims.claim(clock.now(), leaseSeconds);
    if (!d) return false;
    claimed?.();
    try {
      await attempt(d, signal);
    } catch (err) {
      await claims.release(d).catch(() => undefined);
      if (err instanceof OutboundError && err.code === 'aborted') return false;
      throw err;
    }
    return true;
  }

  return {
    settings,

    /** `{secret, header, scheme}`; the secret is created on the first call. */
    async getSecret(actor: Actor): Promise<{ secret: string; header: string; scheme: string }> {
      return { secret: await secrets.get(actor.accountId), header: SIGNATURE_HEADER, scheme: SIGNATURE_SCHEME };
    },

    /**
     * A new secret; the previous one keeps signing (as a second `v1=`) for 24
     * hours. `rotated` is false when the account had no secret yet.
     */
    rotateSecret(actor: Actor): Promise<{ secret: string; rotated: boolean }> {
      return secrets.rotate(actor.accountId);
    },

    /**
     * Checks a `webhook_url` at request time: https, public addresses only (or a
     * test inbox of this Podtext). Throws `invalid_request` naming `webhook_url`.
     * @returns the normalised URL to store.
     */
    async assertWebhookUrl(url: string): Promise<string> {
      const checked = await checkWebhookUrl(url, { client, siteUrl: links.site });
      // A test inbox that is gone would answer every attempt 404: say so now, before a job is made.
      const inbox = ownInboxId(new URL(checked), links.site);
      if (inbox && !(await inboxes.live(inbox))) {
        throw invalid('webhook_url', 'no live test inbox has this address (it expired, or was never made); make one with POST /webhooks/inbox');
      }
      return checked;
    },

    enqueueJobDone: deliveries.enqueueJobDone,
    webhookDelivery: deliveries.webhookDelivery,
    webhookDeliveries: deliveries.webhookDeliveries,

    createInbox: inboxes.create,
    readInbox: inboxes.read,
    receiveInbox: inboxes.receive,
    purgeExpiredInboxes: inboxes.purgeExpired,

    sendNext,

    /**
     * Sends every due delivery, up to `concurrency` at a time, and returns how
     * many attempts reached a result. Safe to run in several processes at once.
     */
    async drain(signal?: AbortSignal): Promise<number> {
      const pool = createLanePool(settings.concurrency, (claimed) => sendNext(signal, claimed), { stopped: () => signal?.aborted ?? false });
      pool.kick();
      await pool.idle();
      return pool.done();
    },

    /** Wakes this process's delivery loop (after committing an enqueue). */
    notify(): void {
      for (const wake of listeners) wake();
    },

    /** For the delivery loop: called on `notify()`. Returns the unsubscribe. */
    onNotify(wake: () => void): () => void {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
