import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * The process logger; children carry requestId/accountId or taskId/attempt.
 * `mixin` adds fields to every line (the active trace's ids when tracing is on).
 */
export function createLogger(level: string, mixin?: () => object): Logger {
  return pino({
    level,
    base: undefined,
    ...(mixin ? { mixin } : {}),
    redact: {
      paths: ['key', 'token', 'secret', '*.key', '*.token', '*.secret', 'req.headers.authorization', 'req.headers["x-api-key"]'],
      censor: '[redacted]',
    },
  });
}
