import type { PrismaClient } from '../generated/prisma/client.js';
import type { EventBus } from '../infra/events/event-bus.js';
import type { Logger } from '../infra/logger.js';
import type { MailTransport } from '../infra/mail/mail-transport.js';
import type { SecretBox } from '../infra/secret-box.js';
import { createAccountService } from './accounts/account-service.js';
import { type BillingProvider, noBillingProvider } from './accounts/billing.js';
import { createGate } from './accounts/gate.js';
import { createKeyService } from './accounts/key-service.js';
import { createMetering } from './accounts/metering.js';
import { createRegistration } from './accounts/registration.js';
import { type Clock, systemClock } from './clock.js';
import { createLinks } from './links.js';
import { createMailOutbox } from './mail/mail-outbox.js';
import { sampleEpisode } from './transcripts/sample/sample-episode.js';
import { createTranscriptService } from './transcripts/transcript-service.js';

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
  /** The public sample episode. Default: the one shipped with Podtext. */
  sampleTranscriptId?: string;
}

/** Builds every core service once; adapters and workers receive the result. */
export function createServices(deps: CoreDeps) {
  const clock = deps.clock ?? systemClock;
  const links = createLinks(deps.siteUrl);
  const outbox = createMailOutbox({ db: deps.db, transport: deps.mail, log: deps.log });
  const keys = createKeyService({ db: deps.db, box: deps.box, bus: deps.bus });
  const metering = createMetering({ db: deps.db, clock, exactBelow: deps.exactMeteringBelow });
  const accounts = createAccountService({
    db: deps.db,
    bus: deps.bus,
    clock,
    metering,
    billing: deps.billing ?? noBillingProvider,
    siteUrl: deps.siteUrl,
  });
  const gate = createGate(keys, metering);
  const registration = createRegistration({ db: deps.db, keys, outbox, links, clock, bus: deps.bus });
  const transcripts = createTranscriptService({
    db: deps.db,
    sampleTranscriptId: deps.sampleTranscriptId ?? sampleEpisode.transcriptId,
    onAccountChanged: accounts.changed,
  });
  return { db: deps.db, bus: deps.bus, log: deps.log, clock, links, outbox, keys, metering, gate, accounts, registration, transcripts };
}

export type Services = ReturnType<typeof createServices>;
