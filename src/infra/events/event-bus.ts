import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS } from '../db/open-database.js';
import type { Logger } from '../logger.js';

/** Everything that other parts (caches, subscriptions, webhooks, other processes) react to. */
export type PodtextEvent =
  | { type: 'account.changed'; accountId: string }
  | { type: 'key.revoked'; accountId: string; lookupHash: string }
  | { type: 'job.updated'; accountId: string; jobId: string; status: string }
  | { type: 'transcript.stored'; transcriptId: string }
  /** This process heard nothing from the others for a while (its LISTEN connection was lost): caches start over. */
  | { type: 'bus.reconnected' };

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

type Wire =
  | { o: string; e: PodtextEvent; id?: string }
  | { o: string; ack: string }
  | { o: string; hello: true; reply?: boolean }
  | { o: string; bye: true };

/** Seconds between presence announcements. Default: 10. */
const HELLO_EVERY_MS = 10_000;
/** A peer unheard of for this long is presumed gone. */
const PEER_TTL_MS = 35_000;
/**
 * Announcements of its own this process may miss before it presumes its LISTEN
 * connection dead. A connection cut without a close (a failover's vanished
 * host, a NAT or firewall dropping an idle flow) carries nothing and reports
 * nothing; only the missing echo of its own announcements tells.
 */
const MISSED_HELLOS = 3;

/** Every connection of the bus: a server that stops answering fails the call instead of holding it. */
const CONNECTION: pg.ClientConfig = {
  application_name: 'podtext-events',
  connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  query_timeout: CONNECT_TIMEOUT_MS,
  keepAlive: true,
  keepAliveInitialDelayMillis: CONNECT_TIMEOUT_MS,
};

const EVENT_TYPES = new Set<string>(['account.changed', 'key.revoked', 'job.updated', 'transcript.stored']);

/**
 * A notification on the channel as one of Podtext's messages, or null. Anyone
 * who can connect may NOTIFY the channel; what is not Podtext's is ignored.
 */
function readWire(payload: string): Wire | null {
  let msg: unknown;
  try {
    msg = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null || typeof (msg as { o?: unknown }).o !== 'string') return null;
  const m = msg as Record<string, unknown>;
  if ('e' in m) {
    const e = m.e as { type?: unknown } | null;
    return typeof e === 'object' && e !== null && typeof e.type === 'string' && EVENT_TYPES.has(e.type) ? (m as Wire) : null;
  }
  if ('ack' in m) return typeof m.ack === 'string' ? (m as Wire) : null;
  if ('hello' in m || 'bye' in m) return m as Wire;
  return null;
}
/** Longest a confirmed publish waits for its acknowledgements. Default: 2000 ms. */
const CONFIRM_TIMEOUT_MS = 2_000;

/**
 * PostgreSQL LISTEN/NOTIFY: every process sees every event. A process applies
 * its own events at once and ignores their echo.
 *
 * `key.revoked` is published with confirmation: the publisher waits until
 * every live peer has applied it (each answers with an ack), so that a key
 * retired in one process fails on the very next request to any other.
 */
export async function createPgEventBus(connectionString: string, log?: Logger, helloEveryMs = HELLO_EVERY_MS): Promise<EventBus> {
  const origin = randomUUID();
  const { emitter, bus } = localBus();
  const sender = new pg.Pool({ connectionString, max: 2, ...CONNECTION });
  // A pooled connection the server ended is dropped by the pool; without a listener its 'error' would end the process.
  sender.on('error', (err) => log?.warn({ err: err.message }, 'event bus: a sending connection was lost'));
  const peers = new Map<string, number>();
  const pendingAcks = new Map<string, { waiting: Set<string>; done: () => void }>();
  const send = (msg: Wire) => sender.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(msg)]);
  let closed = false;
  let reconnecting = false;
  /** When the LISTEN connection last carried anything, this process's own echoes included. */
  let lastHeard = Date.now();

  function onNotification(n: pg.Notification) {
    if (n.channel !== CHANNEL || !n.payload) return;
    lastHeard = Date.now();
    const msg = readWire(n.payload);
    if (!msg) {
      log?.warn({ payload: n.payload.slice(0, 200) }, `event bus: ignored a notification on ${CHANNEL} that is not Podtext's`);
      return;
    }
    if (msg.o === origin) return;
    peers.set(msg.o, Date.now());
    if ('e' in msg) {
      try {
        emitter.emit('event', msg.e);
      } catch (err) {
        // A handler's fault is this process's to log, not a reason to lose the connection or the process.
        log?.error({ err, event: msg.e.type }, 'event bus: a handler failed on an event from another process');
      }
      if (msg.id) void send({ o: origin, ack: msg.id }).catch(() => undefined);
    } else if ('ack' in msg) {
      const p = pendingAcks.get(msg.ack);
      p?.waiting.delete(msg.o);
      if (p && p.waiting.size === 0) p.done();
    } else if ('hello' in msg) {
      if (!msg.reply) void send({ o: origin, hello: true, reply: true }).catch(() => undefined);
    } else if ('bye' in msg) {
      peers.delete(msg.o);
    }
  }

  async function listen(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString, ...CONNECTION });
    client.on('notification', onNotification);
    client.on('error', (err) => lost(client, err));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }

  let listener = await listen();

  /**
   * The LISTEN connection ended (a database restart, a failover, an operator's
   * pg_terminate_backend): listen again, with backoff, and tell this process's
   * caches that events of the gap may have been missed.
   */
  function lost(client: pg.Client, err?: Error) {
    if (closed || client !== listener || reconnecting) return;
    reconnecting = true;
    log?.warn({ err: err?.message }, 'event bus: the LISTEN connection was lost; listening again');
    void (async () => {
      for (let delay = 250; !closed; delay = Math.min(delay * 2, 10_000)) {
        await new Promise((r) => setTimeout(r, delay).unref());
        if (closed) break;
        try {
          listener = await listen();
          lastHeard = Date.now();
          reconnecting = false;
          log?.info('event bus: listening again');
          emitter.emit('event', { type: 'bus.reconnected' } satisfies PodtextEvent);
          return;
        } catch (e) {
          log?.warn({ err: (e as Error).message }, 'event bus: could not listen again yet');
        }
      }
    })();
  }
  await send({ o: origin, hello: true });
  const hello = setInterval(() => {
    if (!reconnecting && Date.now() - lastHeard > MISSED_HELLOS * helloEveryMs) {
      log?.warn(`event bus: the LISTEN connection carried nothing for ${MISSED_HELLOS} announcements, not even this process's own; dropping it`);
      // Its 'end' then listens again through lost(), as for a connection the server ended.
      (listener as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }
    void send({ o: origin, hello: true, reply: true }).catch(() => undefined);
  }, helloEveryMs);
  hello.unref();

  async function publishConfirmed(event: PodtextEvent): Promise<void> {
    const now = Date.now();
    const live = [...peers.entries()].filter(([, seen]) => now - seen < PEER_TTL_MS).map(([o]) => o);
    const id = randomUUID();
    if (live.length === 0) {
      await send({ o: origin, e: event });
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, CONFIRM_TIMEOUT_MS);
      function finish() {
        clearTimeout(timer);
        pendingAcks.delete(id);
        resolve();
      }
      pendingAcks.set(id, { waiting: new Set(live), done: finish });
      send({ o: origin, e: event, id }).catch(finish);
    });
  }

  return {
    ...bus,
    async publish(event) {
      emitter.emit('event', event);
      if (event.type === 'key.revoked') await publishConfirmed(event);
      else await send({ o: origin, e: event });
    },
    async close() {
      clearInterval(hello);
      await send({ o: origin, bye: true }).catch(() => undefined);
      closed = true;
      emitter.removeAllListeners();
      await listener.end().catch(() => undefined);
      await sender.end();
    },
  };
}
