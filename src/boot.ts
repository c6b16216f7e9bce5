// First: V8 flags must be set before start-up allocates (see the module).
import './infra/no-pretenuring.js';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getRequestListener } from '@hono/node-server';
import type { Config } from './config.js';
import { UNREADABLE_HEADERS, unreadableBody, unreadableRequest } from './rest/unreadable-request.js';
import type { BillingProvider } from './core/accounts/billing.js';
import { resetDueCycles } from './core/accounts/billing-cycle.js';
import type { Clock } from './core/clock.js';
import type { WebhookSettings } from './core/webhooks/webhook-service.js';
import { createServices, type Services } from './core/services.js';
import { expireAllLeases } from './core/expire-leases.js';
import { ensureSampleEpisode } from './core/transcripts/sample-seed.js';
import { SAMPLE_AUDIO_PATH } from './site/sample-audio-route.js';
import { attachGraphQLWebSocket } from './graphql/websocket.js';
import { createHttpApp, type HttpApp } from './http-app.js';
import { pendingMigrations } from './infra/db/migrate.js';
import { type Database, openDatabase } from './infra/db/open-database.js';
import { createLocalEventBus, createPgEventBus } from './infra/events/event-bus.js';
import { createLogger } from './infra/logger.js';
import { tracing } from './infra/tracing/tracing.js';
import { createMailTransport } from './infra/mail/mail-transport.js';
import { registerDbGauges } from './infra/metrics/db-gauges.js';
import { countAdmissions, countFeedRefreshes, countMails, timeTasks, webhookAttemptCounter } from './infra/metrics/instrument.js';
import { createMetrics, type Metrics } from './infra/metrics/metrics.js';
import { createOperationsApp } from './site/operations-routes.js';
import { runQueueUpkeep } from './workers/queue-upkeep.js';
import { createOutboundClient } from './infra/outbound/outbound-client.js';
import { createAiOutboundClient } from './core/aisearch/outbound-json-post.js';
import { createStripeBilling } from './infra/billing/stripe-billing.js';
import { openFailure } from './infra/db/open-failure.js';
import { ensureSameSecretKey } from './infra/db/secret-key-check.js';
import { createSecretBox, resolveSecret } from './infra/secret-box.js';
import { runWebhookDelivery } from './workers/webhook-delivery.js';
import { type AudioCheckOptions, createAudioChecks } from './core/transcripts/alignment/audio-check-service.js';
import { runAudioChecks } from './workers/audio-checks.js';
import { runChartRefresh, type ChartRefreshOptions } from './workers/chart-refresh.js';
import { runFeedRefresh } from './workers/feed-refresh.js';
import { type JobOverrides, runTranscriptionWorkers } from './workers/transcription-worker.js';
import { closeFeedParser } from './core/catalog/feed/parse-feed-thread.js';

export interface BootOverrides {
  clock?: Clock;
  billing?: BillingProvider;
  /** Start from this PGlite dump instead of `$DATA_DIR/pglite` (tests). */
  pgliteTemplate?: Blob;
  /** Keep PGlite in memory (tests). */
  inMemory?: boolean;
  exactMeteringBelow?: number;
  /** Webhook sending over the config's settings (tests: a CA, a resolver, a short time limit). */
  webhooks?: WebhookSettings;
  /** Job service and transcription worker tunables (tests: short leases, small download caps). */
  jobs?: JobOverrides;
  /** Daily chart import tunables (tests: a short poll). */
  charts?: ChartRefreshOptions;
  /** Audio re-check tunables over the config's interval (tests: small download caps). */
  audioChecks?: Partial<AudioCheckOptions>;
  /** A listener already bound to PORT (see `bindListener`); `listen` serves on it. */
  listener?: Listener;
}

export interface Podtext {
  config: Config;
  db: Database;
  services: Services;
  http: HttpApp;
  /** This process's Prometheus registry and metrics (`GET /metrics`). */
  metrics: Metrics;
  /** True once `stop` has begun: readiness answers 503. */
  readonly draining: boolean;
  /** Set once `listen` has been called. */
  server?: Server;
  url?: string;
  /**
   * Serves on PORT: the API, site and GraphQL, or for `ROLE=worker` only
   * `/livez`, `/readyz` and `/metrics`. Resolves with the URL listened on.
   */
  listen(): Promise<string>;
  startWorkers(): void;
  /**
   * Shuts down in order: readiness 503 and subscriptions ended at once,
   * workers stop claiming and hand back their tasks, the listener closes
   * (after `SHUTDOWN_DELAY_SECONDS`), requests in flight finish (cut off
   * after `graceMs`), then the database closes. Resolves with the number of
   * requests that were cut off.
   */
  stop(options?: { graceMs?: number }): Promise<{ cutOff: number }>;
}

/** Largest request head accepted: 16 KB (431 beyond). */
const MAX_HEADER_BYTES = 16 * 1024;

/** An HTTP server bound to its port, answering once it is handed the app. */
export interface Listener {
  server: Server;
  /** The port bound (the kernel's pick for `PORT=0`). */
  port: number;
  serve(handler: RequestListener): void;
}

/**
 * The health probes while the database is opened and migrated: the process is
 * alive and not ready. Held until `serve` like other requests, a liveness probe
 * timed out through a long migration and the orchestrator restarted the
 * process, which began the migration again.
 */
function answerProbeWhileStarting(req: IncomingMessage, res: ServerResponse): boolean {
  const probe = req.method === 'GET' || req.method === 'HEAD' ? req.url?.split('?')[0] : undefined;
  const answer = probe === '/livez' ? { code: 200, body: { status: 'ok' } } : probe === '/readyz' ? { code: 503, body: { status: 'unavailable', problems: ['starting: opening and migrating the database'] } } : undefined;
  if (!answer) return false;
  res.writeHead(answer.code, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer.body));
  return true;
}

/**
 * Binds PORT on HOST. `main` does it before anything is built: with `PORT=0`
 * the kernel picks the port, and the default site URL (links in mails,
 * `poll_url`) must name it. Requests that arrive before `serve` wait for it,
 * but `/livez` and `/readyz`, which answer at once (alive, not ready).
 */
export async function bindListener(config: Pick<Config, 'port' | 'host'>): Promise<Listener> {
  let handler: RequestListener | null = null;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    if (handler) handler(req, res);
    else if (!answerProbeWhileStarting(req, res)) waiting.push([req, res]);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(h) {
      handler = h;
      for (const [req, res] of waiting.splice(0)) h(req, res);
    },
  };
}

/** Waits for `promise`, or `ms` at most; leaves no timer behind. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Builds everything from the config; nothing listens or loops until asked. */
export async function boot(config: Config, overrides: BootOverrides = {}): Promise<Podtext> {
  const traces = tracing();
  const log = createLogger(config.logLevel, traces.enabled ? () => traces.activeIds() ?? {} : undefined);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: overrides.inMemory ? undefined : path.join(config.dataDir, 'pglite'),
    pgliteTemplate: overrides.pgliteTemplate,
    statementTimeoutMs: config.statementTimeoutSeconds * 1000,
  }).catch((err: unknown) => {
    throw openFailure(err, config) ?? err;
  });
  const bus = config.databaseUrl ? await createPgEventBus(config.databaseUrl, log) : createLocalEventBus();
  const secret = await resolveSecret(config.secretKey, config.dataDir);
  const box = createSecretBox(secret.secret);
  await ensureSameSecretKey(db.prisma, box, secret).catch(async (err: unknown) => {
    await db.close();
    throw err;
  });
  const metrics = createMetrics();
  const draining = new AbortController();
  const mail = countMails(createMailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log }), metrics);
  const services = createServices({
    db: db.prisma,
    bus,
    box,
    mail,
    log,
    siteUrl: config.siteUrl,
    clock: overrides.clock,
    billing: overrides.billing ?? (config.stripe && createStripeBilling(config.stripe)),
    exactMeteringBelow: overrides.exactMeteringBelow,
    sampleTranscriptId: config.sampleTranscriptId,
    webhooks: { allow: config.outboundAllow, retrySchedule: config.webhookRetrySchedule, onAttempt: webhookAttemptCounter(metrics), ...overrides.webhooks },
    outbound: createOutboundClient({ allow: config.outboundAllow }),
    podcastIndex: config.podcastIndex,
    ai: config.ai,
    aiOutbound: config.ai && createAiOutboundClient(config.ai.url, config.outboundAllow),
    jobOptions: {
      fastLaneAvailable: config.fastLane !== null,
      fastConcurrency: config.fastConcurrency,
      ...overrides.jobs?.options,
      laneEngines: { standard: config.standardLane.engine, fast: config.fastLane?.engine ?? config.standardLane.engine, ...overrides.jobs?.options?.laneEngines },
    },
    onJobDone: overrides.jobs?.onJobDone,
  });
  await ensureSampleEpisode(db.prisma, `${config.siteUrl}${SAMPLE_AUDIO_PATH}`);
  if (db.kind === 'pglite' && !overrides.inMemory) {
    // This process holds the data directory's lock: a lease in it belongs to a process that died.
    const expired = await expireAllLeases(db.prisma);
    if (Object.values(expired).some((n) => n > 0)) log.warn({ ...expired }, 'work leased by a process that died is taken up again now');
  }
  timeTasks(services.jobs.tasks, metrics);
  countAdmissions(services.door, metrics);
  registerDbGauges(metrics.registry, { db: db.prisma, searchIndexSize: () => services.discovery.showSearch.size, pool: db.poolStats });
  const checkReady = async () => {
    // Every connection held and calls queued for one: the check would queue behind them for up to 10 s.
    const pool = db.poolStats?.();
    if (pool && pool.idle === 0 && pool.waiting > 0) return [`database: busy: all ${pool.total} connections in use, ${pool.waiting} calls waiting for one`];
    const pending = await pendingMigrations(db.sql);
    return pending.length > 0 ? [`database: migrations not applied: ${pending.join(', ')}`] : [];
  };
  const operations = { metrics, draining: draining.signal, checkReady, metricsToken: config.metricsToken };
  const http = createHttpApp(services, { siteUrl: config.siteUrl, production: config.production, operations });
  const loops = new AbortController();
  const running: Promise<unknown>[] = [];
  let closeWs: (() => Promise<void>) | null = null;

  const podtext: Podtext = {
    config,
    db,
    services,
    http,
    metrics,
    get draining() {
      return draining.signal.aborted;
    },
    async listen() {
      const listener = overrides.listener ?? (await bindListener(config));
      const { server } = listener;
      // A worker's port is for probes and scrapes only: nothing there reaches the API.
      const app = config.role === 'worker' ? createOperationsApp(operations) : http.app;
      const answer = getRequestListener(app.fetch, { hostname: config.host, errorHandler: (err) => unreadableRequest(err, (bug) => log.error({ err: bug }, 'request failed outside the app')) });
      listener.serve((req, res) => void answer(req, res));
      server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
        if (!socket.writable) return;
        const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
        const body = unreadableBody(tooLarge ? 'header_too_large' : 'invalid_request', 'malformed HTTP');
        const headers = Object.entries(UNREADABLE_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');
        socket.end(`HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      });
      if (config.role !== 'worker') closeWs = attachGraphQLWebSocket(server, http.yoga, services);
      podtext.server = server;
      podtext.url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${listener.port}`;
      return podtext.url;
    },
    startWorkers() {
      running.push(services.outbox.run(loops.signal));
      running.push(runWebhookDelivery(services, loops.signal));
      running.push(runFeedRefresh(countFeedRefreshes(services.catalogIngest, metrics), loops.signal, { log }));
      running.push(runQueueUpkeep({ db: db.prisma, log, retentionDays: config.queueRetentionDays }, loops.signal));
      if (config.charts) {
        const deps = { db: db.prisma, outbound: services.outbound, clock: services.clock, log, sources: config.charts };
        running.push(runChartRefresh(deps, loops.signal, overrides.charts));
      }
      const audioChecks = createAudioChecks({
        db: db.prisma,
        outbound: services.outbound,
        clock: services.clock,
        log,
        scratchDir: path.join(config.dataDir, 'scratch', 'audio-checks'),
        stored: services.transcripts.stored,
        options: { intervalSeconds: config.audioCheckIntervalSeconds, ...overrides.audioChecks },
      });
      running.push(runAudioChecks(audioChecks, bus, log, loops.signal));
      if (config.workers > 0) {
        const transcription = { jobs: services.jobs, bus, log, outbound: services.outbound, workers: config.workers, dataDir: config.dataDir };
        const lanes = { standard: config.standardLane, fast: config.fastLane };
        const options = { fastConcurrency: config.fastConcurrency, ...overrides.jobs?.workers };
        const run = runTranscriptionWorkers({ ...transcription, lanes, options, onTaskTimings: overrides.jobs?.onTaskTimings, onChunkTimings: overrides.jobs?.onChunkTimings, keepReference: audioChecks.keepReference }, loops.signal);
        running.push(run.catch((err) => log.error({ err }, 'transcription workers failed')));
      }
      const cycles = setInterval(() => {
        resetDueCycles(db.prisma, services.clock, services.accounts.changed).catch((err) => log.error({ err }, 'billing cycle reset failed'));
        services.sessions.prune().catch((err) => log.error({ err }, 'pruning website sessions failed'));
      }, 10 * 60_000);
      cycles.unref();
      loops.signal.addEventListener('abort', () => clearInterval(cycles));
    },
    async stop({ graceMs = config.shutdownGraceSeconds * 1000 } = {}) {
      const deadline = Date.now() + graceMs;
      const left = () => Math.max(0, deadline - Date.now());
      draining.abort();
      loops.abort();
      const server = podtext.server;
      if (server && config.shutdownDelaySeconds > 0) await within(new Promise(() => undefined), Math.min(config.shutdownDelaySeconds * 1000, left()));
      const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      // Keep-alive connections between requests: closed at once, and again as requests in flight end.
      const idle = server ? setInterval(() => server.closeIdleConnections(), 100) : undefined;
      server?.closeIdleConnections();
      // The ended subscriptions' `complete` messages go out before the sockets close.
      await sleep(50);
      if (closeWs) await closeWs();
      await within(Promise.allSettled(running), left());
      await within(closed, left());
      clearInterval(idle);
      // Requests being answered now (counted by the timing middleware): cut off below.
      const cutOff = metrics.httpInFlight.value;
      if (server) {
        server.closeAllConnections();
        await closed;
      }
      await services.metering.flush().catch(() => undefined);
      services.metering.stop();
      mail.close();
      await closeFeedParser();
      await bus.close();
      await db.close();
      return { cutOff };
    },
  };
  return podtext;
}
