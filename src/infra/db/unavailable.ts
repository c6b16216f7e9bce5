import { DomainError } from '../../core/errors.js';

/** Seconds a client is asked to wait before trying a call the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The error a client is told when `err` says the database is unreachable or
 * too busy to answer in time (503 `unavailable`, retry after a few seconds);
 * null for any other error.
 */
export function databaseUnavailable(err: unknown): DomainError | null {
  const trouble = databaseTrouble(err);
  if (!trouble) return null;
  const what = trouble === 'busy' ? 'too busy to answer' : 'unreachable';
  return new DomainError('unavailable', `The database is ${what} right now; try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, { retryAfter: DATABASE_RETRY_AFTER_SECONDS });
}

/**
 * A readiness problem for a failed database check, saying whether the
 * database is busy (it answers, slowly) or unreachable: an operator looks
 * at locks and slow queries for one and at the network or the server for
 * the other.
 * @example databaseProblem(err) // "database: busy: canceling statement due to statement timeout"
 */
export function databaseProblem(err: unknown): string {
  const trouble = databaseTrouble(err);
  const message = err instanceof Error ? err.message : String(err);
  return trouble ? `database: ${trouble}: ${message}` : `database: ${message}`;
}

/**
 * Whether an error says the database could not be reached or ended the
 * session (a restart, a failover, refused connections, a full server), or
 * was too busy to answer in time (a statement over its time limit, a lock
 * not granted, every pooled connection held), as opposed to a fault in the
 * statement or in Podtext. Such a call may succeed when tried again, so
 * callers answer 503 with a time to retry, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return databaseTrouble(err) !== null;
}

/**
 * What kept the database from serving a call: `busy` (it answers, but a
 * statement ran past `statement_timeout`, waited too long for a lock, a
 * transaction ran past its time limit or waited too long to start, or
 * every pooled connection was held by slow calls), `unreachable` (no
 * connection, or the session ended); null for any other error.
 */
export function databaseTrouble(err: unknown): 'busy' | 'unreachable' | null {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  let found: 'busy' | 'unreachable' | null = null;
  while (pending.length > 0) {
    const e = pending.pop() as ErrorLike | null | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    if (busySign(e)) return 'busy';
    if (unavailableSign(e)) found = 'unreachable';
    // Prisma carries the driver's error in `meta`; pg and GraphQL in `cause` and `originalError`.
    pending.push(e.cause, e.originalError, e.meta?.driverAdapterError, e.meta?.driverAdapterError?.cause);
  }
  return found;
}

interface ErrorLike {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
}

// @prisma/adapter-pg's names for connection failures.
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TlsConnectionError']);
// Prisma's own: server unreachable, timed out, closed the connection, no pooled connection in time.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
// SQLSTATE: admin/crash shutdown, cannot connect now, too many connections.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = /Connection terminated|Query read timeout|timeout exceeded when trying to connect|is not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)/i;

// SQLSTATE: query_canceled (statement_timeout, or a cancel), lock_not_available (lock_timeout, NOWAIT).
const BUSY_SQLSTATES = new Set(['57014', '55P03']);
// Also Prisma's P2028 when a transaction ran past its time limit or could not start within its wait
// (not when code used a transaction after its end: a fault, which stays a 500).
const BUSY_MESSAGES = /canceling statement due to (statement|lock) timeout|database connections are in use|executed on an expired transaction|Unable to start a transaction in the given time/i;

function errorCode(e: ErrorLike): string {
  return typeof e.originalCode === 'string' ? e.originalCode : typeof e.code === 'string' ? e.code : '';
}

function busySign(e: ErrorLike): boolean {
  return BUSY_SQLSTATES.has(errorCode(e)) || (typeof e.message === 'string' && BUSY_MESSAGES.test(e.message));
}

function unavailableSign(e: ErrorLike): boolean {
  const code = errorCode(e);
  if (ADAPTER_KINDS.has(String(e.kind)) || PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATES.has(code)) return true;
  // Class 08: connection exceptions.
  if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message);
}
