import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';

/** Everything that other parts (caches, subscriptions, webhooks, other processes) react to. */
export type PodtextEvent =
  | { type: 'account.changed'; accountId: string }
  | { type: 'key.revoked'; accountId: string; lookupHash: string }
  | { type: 'job.updated'; accountId: string; jobId: string; status: string };

export type EventHandler = (event: PodtextEvent) => void;

export interface EventBus {
  /** Delivers to this process at once and, on PostgreSQL, to every other process. */
  publish(event: PodtextEvent): Promise<void>;
  subscribe(handler: EventHandler): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'podtext_events';

function localBus(): { emitter: EventEmitter; bus: Omit<EventBus, 'publish' | 'close'> } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emitter,
    bus: {
      subscribe(handler) {
        emitter.on('event', handler);
        return () => emitter.off('event', handler);
      },
    },
  };
}

/** In-process only: the embedded default, one process. */
export function createLocalEventBus(): EventBus {
  const { emitter, bus } = localBus();
  return {
    ...bus,
    publish: async (event) => {
      emitter.emit('event', event);
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

/**
 * PostgreSQL LISTEN/NOTIFY: every process sees every event. A process applies
 * its own events at once and ignores their echo.
 */
export async function createPgEventBus(connectionString: string): Promise<EventBus> {
  const origin = randomUUID();
  const { emitter, bus } = localBus();
  const listener = new pg.Client({ connectionString });
  const sender = new pg.Pool({ connectionString, max: 2 });
  await listener.connect();
  listener.on('notification', (msg) => {
    if (msg.channel !== CHANNEL || !msg.payload) return;
    const { o, e } = JSON.parse(msg.payload) as { o: string; e: PodtextEvent };
    if (o !== origin) emitter.emit('event', e);
  });
  await listener.query(`LISTEN ${CHANNEL}`);
  return {
    ...bus,
    async publish(event) {
      emitter.emit('event', event);
      await sender.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ o: origin, e: event })]);
    },
    async close() {
      emitter.removeAllListeners();
      await listener.end();
      await sender.end();
    },
  };
}
