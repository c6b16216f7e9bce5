import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type ErrorCode, errorStatus } from '../core/errors.js';
import type { Logger } from '../infra/logger.js';

export function errorBody(code: ErrorCode, message: string) {
  return { error: { code, message } };
}

/** The one place a thrown error becomes an HTTP answer. */
export function toErrorResponse(c: Context, err: unknown, log: Logger): Response {
  if (err instanceof DomainError) {
    return c.json(errorBody(err.code, err.message), errorStatus[err.code] as ContentfulStatusCode);
  }
  if (err instanceof HTTPException) {
    // Raised by Hono itself: body limit, malformed input.
    const status = err.status;
    const code: ErrorCode = status === 413 ? 'payload_too_large' : status === 401 ? 'unauthorized' : 'invalid_request';
    const message = status === 413 ? 'body: larger than 1 MB' : err.message || 'body: malformed request';
    return c.json(errorBody(code, message), status as ContentfulStatusCode);
  }
  log.error({ err }, 'unhandled error');
  return c.json(errorBody('internal', 'Something went wrong on our side; it has been logged.'), 500);
}
