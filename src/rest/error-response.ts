import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type ErrorCode, errorStatus } from '../core/errors.js';
import { isClientAbort } from '../infra/client-abort.js';
import { databaseTrouble, databaseUnavailable } from '../infra/db/unavailable.js';
import type { Logger } from '../infra/logger.js';
import { bodyUnread } from './request-credentials.js';

export function errorBody(code: ErrorCode, message: string) {
  return { error: { code, message } };
}

/** The error body, closing the connection when the request's body was never read. */
function answer(c: Context, code: ErrorCode, message: string, status: number): Response {
  // Node would read and drop, or cut off, a body nobody read; either way the
  // connection must not be offered for reuse.
  if (bodyUnread(c)) c.header('Connection', 'close');
  // HTTP requires a 401 to name the scheme that would be accepted (RFC 9110, 15.5.2).
  if (status === 401) c.header('WWW-Authenticate', 'Bearer');
  return c.json(errorBody(code, message), status as ContentfulStatusCode);
}

/** The one place a thrown error becomes an HTTP answer. */
export function toErrorResponse(c: Context, err: unknown, log: Logger): Response {
  if (err instanceof DomainError) {
    // A refusal that ends at a known time (an allowance, an attempt window) says when.
    if (err.details?.retryAfter) c.header('Retry-After', String(err.details.retryAfter));
    return answer(c, err.code, err.message, errorStatus[err.code]);
  }
  if (err instanceof HTTPException) {
    // Raised by Hono itself: body limit, a body that is not JSON. Each code keeps its one
    // status: a body sent without a JSON content type (415 from the validator) is a 400
    // `invalid_request` naming the body, like any other bad body.
    const status = err.status;
    if (status === 413) return answer(c, 'payload_too_large', 'body: larger than 1 MB', 413);
    if (status === 401) return answer(c, 'unauthorized', err.message || 'Unknown API key', 401);
    const message = status === 415 ? 'body: send JSON, with "Content-Type: application/json"' : /json/i.test(err.message) ? 'body: malformed JSON' : `body: ${err.message || 'malformed request'}`;
    return answer(c, 'invalid_request', message, errorStatus.invalid_request);
  }
  if (isClientAbort(err)) {
    // The client went away mid-request: nothing to answer, nothing to alarm anyone about.
    log.debug({ err }, 'client aborted the request');
    return answer(c, 'invalid_request', 'request: aborted by the client', 400);
  }
  const unavailable = databaseUnavailable(err);
  if (unavailable) {
    log.warn({ err }, `database ${databaseTrouble(err)}`);
    return toErrorResponse(c, unavailable, log);
  }
  log.error({ err }, 'unhandled error');
  return answer(c, 'internal', 'Something went wrong on our side; it has been logged.', 500);
}

