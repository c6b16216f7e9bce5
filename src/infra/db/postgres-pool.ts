import pg from 'pg';

/** `idle_in_transaction_session_timeout` of Podtext's PostgreSQL sessions, in ms: one minute. */
export const IDLE_IN_TRANSACTION_MS = 60_000;

/** How long a call waits for a PostgreSQL connection (new or from the pool), in ms. */
export const CONNECT_TIMEOUT_MS = 10_000;

export interface PoolOptions {
  connectionString: string;
  /** Connections at most. */
  max: number;
  /** `statement_timeout` of every session, in ms; 0: none. */
  statementTimeoutMs: number;
}

/**
 * A pool whose wait for a connection, when every connection is held by a
 * call (slow statements, a lock held elsewhere), fails with an error that
 * says so: pg's own "timeout exceeded when trying to connect" reads the same
 * as a server that does not answer, which it is not.
 */
class PodtextPool extends pg.Pool {
  inUse = 0;

  constructor(config: pg.PoolConfig) {
    super(config);
    this.on('acquire', () => this.inUse++);
    this.on('release', () => this.inUse--);
    this.on('connect', endOnReadTimeout);
  }

  // pg's own signatures: pool.query() takes a connection through this one too.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): Promise<pg.PoolClient> | void {
    const full = (err: Error): Error => {
      if (err.message !== 'timeout exceeded when trying to connect' || this.inUse < (this.options.max ?? 10)) return err;
      return new Error(`all ${this.inUse} database connections are in use by calls the database has not answered yet; none came free within ${CONNECT_TIMEOUT_MS / 1000} s`, { cause: err });
    };
    if (!callback) return super.connect().catch((err: Error) => Promise.reject(full(err)));
    super.connect((err, client, done) => callback(err ? full(err) : err, client, done));
  }
}

/** What pg says when a query's `query_timeout` ran out with no answer from the server. */
const READ_TIMEOUT = 'Query read timeout';

// Internals of pg's Client: the client-side time limit, and the socket.
interface ClientInternals {
  connectionParameters: { query_timeout?: number };
  connection: { stream: { destroy(): void } };
}

/**
 * A connection whose query got no answer within `query_timeout` is ended:
 * pg would hand it back with the query still outstanding, and the next call
 * on it would wait behind a server that no longer answers.
 */
function endOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: Error) => {
        if (err?.message === READ_TIMEOUT) (client as unknown as ClientInternals).connection.stream.destroy();
      });
    }
    return result;
  };
}

/**
 * The pool of a process: every session bounded in how long a statement may
 * run (`statement_timeout`) and how long it may sit idle in a transaction.
 * Long admin work (migrations, bulk loads) lifts the bound on its own
 * session with {@link unbounded}.
 */
export function createPostgresPool(options: PoolOptions): pg.Pool {
  // PostgreSQL ends a statement itself after statement_timeout; no answer some
  // seconds later means the server or the link is gone (a partition, a host
  // vanished without a close), which TCP keepalive would only find after
  // minutes. With no statement limit, no such bound either.
  const queryTimeout = options.statementTimeoutMs > 0 ? options.statementTimeoutMs + CONNECT_TIMEOUT_MS : undefined;
  const settings = [`idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`, `statement_timeout=${Math.round(options.statementTimeoutMs)}`];
  const pool = new PodtextPool({
    connectionString: options.connectionString,
    max: options.max,
    // A session left idle inside a transaction (a stuck request, a lost
    // client) holds its row locks and stops vacuum from cleaning the queue
    // tables; PostgreSQL ends it after this long. Podtext's transactions
    // never wait on anything but the database. A statement stuck behind a
    // lock, or over a busy server, is cancelled after statement_timeout, so
    // it gives its connection back and the caller hears "busy, try again".
    options: settings.map((s) => `-c ${s}`).join(' '),
    // A server that never answers (a network partition) fails the call
    // after this long, as a 503, instead of holding it open for good.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: queryTimeout,
    // A peer gone without a close (a failover's vanished host) is found by
    // the kernel's keepalive probes instead of never.
    keepAlive: true,
    keepAliveInitialDelayMillis: CONNECT_TIMEOUT_MS,
  });
  // A connection PostgreSQL ends while idle (a restart, pg_terminate_backend,
  // a database dropped as the pool closes) is dropped from the pool and
  // replaced on next use. Prisma listens only while it is connected; without
  // a listener of our own the pool's 'error' would stop the process.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Runs `work` on `client` with no statement time limit (nor the client's
 * wait for an answer), then restores the pool's before the connection goes
 * back: migrations,
 * bulk copies and index builds may rightly take minutes.
 */
export async function unbounded<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  const params = (client as unknown as ClientInternals).connectionParameters;
  const readTimeout = params.query_timeout;
  await client.query('SET statement_timeout = 0');
  params.query_timeout = undefined;
  try {
    return await work();
  } finally {
    params.query_timeout = readTimeout;
    await client.query('RESET statement_timeout').catch(() => undefined);
  }
}
