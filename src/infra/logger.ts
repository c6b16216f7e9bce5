import { pino, type Logger } from 'pino';

export type { Logger };

/** The process logger; children carry requestId/accountId or taskId/attempt. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['key', 'token', 'secret', '*.key', '*.token', '*.secret', 'req.headers.authorization', 'req.headers["x-api-key"]'],
      censor: '[redacted]',
    },
  });
}
