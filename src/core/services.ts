import type { PrismaClient } from '../generated/prisma/client.js';
import type { EventBus } from '../infra/events/event-bus.js';
import type { Logger } from '../infra/logger.js';
import type { MailTransport } from '../infra/mail/mail-transport.js';
import { createOutboundClient, type OutboundClient } from '../infra/outbound/outbound-client.js';
import type { SecretBox } from '../infra/secret-box.js';
import { createAccountService } from './accounts/account-service.js';
import { type AiEndpointConfig, setUpAiSearch } from './aisearch/ai-search-setup.js';
import { type BillingProvider, noBillingProvider } from './accounts/billing.js';
import { createBillingService } from './accounts/billing-service.js';
import { type ArtworkOptions, createShowArtwork } from './catalog/artwork/show-artwork.js';
import { createCatalogIngest } from './catalog/ingest/catalog-ingest.js';
import { createDiscovery } from './catalog/discovery/discovery-service.js';
import { createPodcastIndexClient } from './catalog/imports/podcastindex-client.js';
import { createKeyService } from './accounts/key-service.js';
import { createMetering } from './accounts/metering.js';
import { createRegistration, fillCurrentKey } from './accounts/registration.js';
import { createSessionService } from './accounts/sessions.js';
import { createKeyRetirement } from './accounts/key-retirement.js';
import { type Clock, systemClock } from './clock.js';
import { createDoor } from './door/door.js';
import { createLinks } from './links.js';
import { createMailOutbox } from './mail/mail-outbox.js';
import type { OnJobDone } from './jobs/job-done-payload.js';
import type { JobOptions } from './jobs/job-options.js';
import { createJobService } from './jobs/job-service.js';
import { sampleEpisode } from './transcripts/sample/sample-episode.js';
import { createTranscriptService } from './transcripts/transcript-service.js';
import { createWebhookService, type WebhookSettings } from './webhooks/webhook-service.js';

export interface CoreDeps {
  db: PrismaClient;
  bus: EventBus;
  box: SecretBox;
  mail: MailTransport;
  log: Logger;
  siteUrl: string;
  clock?: Clock;
  billing?: BillingProvider;
  /** Metering: requests below which counting is exact. Default: 100. */
  exactMeteringBelow?: number;
  /** The guarded client for every outbound request. Default: one with no allow list. */
  outbound?: OutboundClient;
  /** Podcast Index API credentials; when set, new feeds take their Podcast Index id. */
  podcastIndex?: { key: string; secret: string };
  /** How webhooks are sent: allow list, retry schedule, time limit, CA. Default: see WebhookSettings. */
  webhooks?: WebhookSettings;
  /** The public sample episode. Default: the one shipped with Podtext. */
  sampleTranscriptId?: string;
  /** AI Search's chat model endpoint. Default: none (offline search only). */
  ai?: AiEndpointConfig;
  /** The client for `ai.url` only, with that endpoint exempt from the private-address guard. Default: one made for it. */
  aiOutbound?: OutboundClient;
  /** Job tunables (lanes' engines, leases, retries, promise). Default: see JobOptions. */
  jobOptions?: Partial<JobOptions>;
  /** Queues the `job.done` webhook inside the transaction that sets a job done. Default: none. */
  onJobDone?: OnJobDone;
  /** Show artwork fetching and caching (size cap, memory, freshness). Default: see ArtworkOptions. */
  artwork?: ArtworkOptions;
}

/** Builds every core service once; adapters and workers receive the result. */
export function createServices(deps: CoreDeps) {
  const clock = deps.clock ?? systemClock;
  const links = createLinks(deps.siteUrl);
  // `keys` is made just below; the outbox calls `fill` only when it sends.
  const outbox = createMailOutbox({ db: deps.db, transport: deps.mail, log: deps.log, box: deps.box, fill: (to, text) => fillCurrentKey(deps.db, keys, to, text) });
  const keys = createKeyService({ db: deps.db, box: deps.box, bus: deps.bus });
  const metering = createMetering({ db: deps.db, clock, bus: deps.bus, exactBelow: deps.exactMeteringBelow });
  const accounts = createAccountService({
    db: deps.db,
    bus: deps.bus,
    clock,
    metering,
  });
  const billing = createBillingService({
    db: deps.db,
    clock,
    provider: deps.billing ?? noBillingProvider,
    siteUrl: deps.siteUrl,
    log: deps.log,
    onAccountChanged: accounts.changed,
  });
  const sessions = createSessionService({ db: deps.db, keys, clock });
  const keyRetirement = createKeyRetirement(deps.bus);
  const outbound = deps.outbound ?? createOutboundClient();
  const registration = createRegistration({ db: deps.db, keys, outbox, links, clock, bus: deps.bus });
  const transcripts = createTranscriptService({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    sampleTranscriptId: deps.sampleTranscriptId ?? sampleEpisode.transcriptId,
    onAccountChanged: accounts.changed,
  });
  const catalogIngest = createCatalogIngest({
    db: deps.db,
    outbound,
    clock,
    log: deps.log,
    podcastIndex: deps.podcastIndex && createPodcastIndexClient({ ...deps.podcastIndex, outbound, clock }),
    onTranscriptStored: transcripts.stored,
  });
  const webhooks = createWebhookService({ db: deps.db, box: deps.box, clock, links, log: deps.log, settings: deps.webhooks });
  const aiSearch = setUpAiSearch({ db: deps.db, transcripts, links, onAccountChanged: accounts.changed, log: deps.log, ai: deps.ai, aiOutbound: deps.aiOutbound });
  const jobs = createJobService({
    db: deps.db,
    bus: deps.bus,
    clock,
    links,
    outbox,
    log: deps.log,
    sampleTranscriptId: transcripts.sampleTranscriptId,
    onAccountChanged: accounts.changed,
    onTranscriptStored: transcripts.stored,
    onJobDone: deps.onJobDone ?? (async (tx, job) => void (await webhooks.enqueueJobDone(tx, job))),
    checkWebhookUrl: (url) => webhooks.assertWebhookUrl(url),
    options: deps.jobOptions,
  });
  const door = createDoor({ keys, clock, metering, sampleTranscriptId: transcripts.sampleTranscriptId, sessions });
  const discovery = createDiscovery({ db: deps.db, links, catalogIngest, clock, log: deps.log, sampleTranscriptId: transcripts.sampleTranscriptId });
  const artwork = createShowArtwork({ db: deps.db, outbound, clock, log: deps.log, options: deps.artwork });
  return { db: deps.db, bus: deps.bus, log: deps.log, clock, links, outbox, keys, sessions, keyRetirement, metering, door, accounts, billing, registration, transcripts, outbound, catalogIngest, discovery, artwork, webhooks, aiSearch, jobs };
}

export type Services = ReturnType<typeof createServices>;
