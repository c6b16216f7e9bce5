import { DomainError } from '../../core/errors.js';

/** Seconds a client is asked to wait before trying a call the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The error a client is told when `err` says the database is unreachable
 * (503 `unavailable`, retry after a few seconds); null for any other error.
 */
export function databaseUnavailable(err: unknown): DomainError | null {
  if (!isDatabaseUnavailable(err)) return null;
  return new DomainError('unavailable', `The database is unreachable right now; try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, { retryAfter: DATABASE_RETRY_AFTER_SECONDS });
}

/**
 * Whether an error says the database could not be reached or ended the
 * session (a restart, a failover, refused connections, a full server), as
 * opposed to a fault in the statement or in Podtext. Such a call may succeed
 * when tried again, so callers answer 503 with a time to retry, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  while (pending.length > 0) {
    const e = pending.pop() as ErrorLike | null | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    if (unavailableSign(e)) return true;
    // Prisma carries the driver's error in `meta`; pg and GraphQL in `cause` and `originalError`.
    pending.push(e.cause, e.originalError, e.meta?.driverAdapterError, e.meta?.driverAdapterError?.cause);
  }
  return false;
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
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|is not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)/i;

function unavailableSign(e: ErrorLike): boolean {
  const code = typeof e.originalCode === 'string' ? e.originalCode : typeof e.code === 'string' ? e.code : '';
  if (ADAPTER_KINDS.has(String(e.kind)) || PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATES.has(code)) return true;
  // Class 08: connection exceptions.
  if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message);
}
