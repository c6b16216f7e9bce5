import { OperatorError } from '../operator-error.js';

const POSTGRES_REASONS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist (create it first: createdb, or CREATE DATABASE)',
  ECONNREFUSED: 'nothing accepts connections at that host and port (is PostgreSQL running?)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (the name service did not answer)',
  ETIMEDOUT: 'the server did not answer in time',
  EHOSTUNREACH: 'the host cannot be reached',
};

/** pg's own failures to connect carry no code, only these messages. */
const POSTGRES_MESSAGES: [RegExp, string][] = [
  [/timeout exceeded when trying to connect|connection timeout/i, POSTGRES_REASONS.ETIMEDOUT!],
  // A port forwarder with nothing behind it, or another service on PostgreSQL's port.
  [/terminated unexpectedly/i, 'the server there closed the connection without answering (is it PostgreSQL?)'],
  [/does not support SSL/i, 'the server does not accept SSL, which the URL asks for (sslmode)'],
];

/**
 * The first connection to DATABASE_URL failed: whatever the driver says, the
 * URL or the server it names is the operator's to mend.
 */
export class ConnectFailed extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = 'ConnectFailed';
  }
}

const DIRECTORY_REASONS: Record<string, string> = {
  EACCES: 'cannot be written by this user',
  EPERM: 'cannot be written by this user',
  EROFS: 'is on a read-only file system',
  EEXIST: 'is a file, not a directory',
  ENOTDIR: 'is under a file, not a directory',
  ENOSPC: 'is on a full disk',
};

/**
 * What an operator must mend when the database cannot be opened at start,
 * naming the setting (DATABASE_URL or DATA_DIR); null for anything else
 * (a failing migration), which stays a crash with its stack.
 */
export function openFailure(err: unknown, where: { databaseUrl?: string; dataDir: string }): OperatorError | null {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  if (where.databaseUrl) {
    const reason =
      POSTGRES_REASONS[code] ??
      POSTGRES_MESSAGES.find(([pattern]) => pattern.test(e.message ?? ''))?.[1] ??
      (err instanceof ConnectFailed ? `the connection failed: ${e.message}` : undefined);
    return reason ? new OperatorError(`Cannot open the database:\n  DATABASE_URL: ${reason} (${withoutPassword(where.databaseUrl)}).`) : null;
  }
  const reason = DIRECTORY_REASONS[code];
  return reason ? new OperatorError(`Cannot open the database:\n  DATA_DIR: ${where.dataDir} ${reason}.`) : null;
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the URL given';
  }
}
