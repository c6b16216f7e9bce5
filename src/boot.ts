import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { Config } from './config.js';
import type { BillingProvider } from './core/accounts/billing.js';
import { resetDueCycles } from './core/accounts/billing-cycle.js';
import type { Clock } from './core/clock.js';
import type { WebhookSettings } from './core/webhooks/webhook-service.js';
import { createServices, type Services } from './core/services.js';
import { ensureSampleEpisode } from './core/transcripts/sample-seed.js';
import { attachGraphQLWebSocket } from './graphql/websocket.js';
import { createHttpApp, type HttpApp } from './http-app.js';
import { type Database, openDatabase } from './infra/db/open-database.js';
import { createLocalEventBus, createPgEventBus } from './infra/events/event-bus.js';
import { createLogger } from './infra/logger.js';
import { createMailTransport } from './infra/mail/mail-transport.js';
import { createOutboundClient } from './infra/outbound/outbound-client.js';
import { createAiOutboundClient } from './core/aisearch/outbound-json-post.js';
import { createSecretBox, resolveSecret } from './infra/secret-box.js';
import { runWebhookDelivery } from './workers/webhook-delivery.js';
import { type AudioCheckOptions, createAudioChecks } from './core/transcripts/alignment/audio-check-service.js';
import { runAudioChecks } from './workers/audio-checks.js';
import { runChartRefresh, type ChartRefreshOptions } from './workers/chart-refresh.js';
import { runFeedRefresh } from './workers/feed-refresh.js';
import { type JobOverrides, runTranscriptionWorkers } from './workers/transcription-worker.js';

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
}

export interface Podtext {
  config: Config;
  db: Database;
  services: Services;
  http: HttpApp;
  /** Set once `listen` has been called. */
  server?: Server;
  url?: string;
  listen(): Promise<string>;
  startWorkers(): void;
  stop(): Promise<void>;
}

/** Builds everything from the config; nothing listens or loops until asked. */
export async function boot(config: Config, overrides: BootOverrides = {}): Promise<Podtext> {
  const log = createLogger(config.logLevel);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: overrides.inMemory ? undefined : path.join(config.dataDir, 'pglite'),
    pgliteTemplate: overrides.pgliteTemplate,
  });
  const bus = config.databaseUrl ? await createPgEventBus(config.databaseUrl) : createLocalEventBus();
  const box = createSecretBox(await resolveSecret(config.secretKey, config.dataDir));
  const mail = createMailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log });
  const services = createServices({
    db: db.prisma,
    bus,
    box,
    mail,
    log,
    siteUrl: config.siteUrl,
    clock: overrides.clock,
    billing: overrides.billing,
    exactMeteringBelow: overrides.exactMeteringBelow,
    sampleTranscriptId: config.sampleTranscriptId,
    webhooks: { allow: config.outboundAllow, retrySchedule: config.webhookRetrySchedule, ...overrides.webhooks },
    outbound: createOutboundClient({ allow: config.outboundAllow }),
    podcastIndex: config.podcastIndex,
    ai: config.ai,
    aiOutbound: config.ai && createAiOutboundClient(config.ai.url, config.outboundAllow),
    jobOptions: {
      fastLaneAvailable: config.fastLane !== null,
      ...overrides.jobs?.options,
      laneEngines: { standard: config.standardLane.engine, fast: config.fastLane?.engine ?? config.standardLane.engine, ...overrides.jobs?.options?.laneEngines },
    },
    onJobDone: overrides.jobs?.onJobDone,
  });
  await ensureSampleEpisode(db.prisma);
  const http = createHttpApp(services, { siteUrl: config.siteUrl, production: config.production });
  const loops = new AbortController();
  const running: Promise<unknown>[] = [];
  let closeWs: (() => Promise<void>) | null = null;

  const podtext: Podtext = {
    config,
    db,
    services,
    http,
    async listen() {
      const server = await new Promise<Server>((resolve) => {
        const s = serve(
          { fetch: http.app.fetch, port: config.port, hostname: config.host, serverOptions: { maxHeaderSize: 16 * 1024 } },
          () => resolve(s as Server),
        ) as Server;
      });
      server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
        if (!socket.writable) return;
        const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
        const body = JSON.stringify({ error: tooLarge ? { code: 'header_too_large', message: 'headers: larger than 16 KB' } : { code: 'invalid_request', message: 'request: malformed HTTP' } });
        socket.end(`HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      });
      closeWs = attachGraphQLWebSocket(server, http.yoga, services);
      podtext.server = server;
      const port = (server.address() as AddressInfo).port;
      podtext.url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
      return podtext.url;
    },
    startWorkers() {
      running.push(services.outbox.run(loops.signal));
      running.push(runWebhookDelivery(services, loops.signal));
      running.push(runFeedRefresh(services.catalogIngest, loops.signal, { log }));
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
      }, 10 * 60_000);
      cycles.unref();
      loops.signal.addEventListener('abort', () => clearInterval(cycles));
    },
    async stop() {
      loops.abort();
      await Promise.allSettled(running);
      if (closeWs) await closeWs();
      if (podtext.server) {
        podtext.server.closeAllConnections?.();
        await new Promise<void>((resolve) => podtext.server!.close(() => resolve()));
      }
      await services.metering.flush().catch(() => undefined);
      services.metering.stop();
      mail.close();
      await bus.close();
      await db.close();
    },
  };
  return podtext;
}
