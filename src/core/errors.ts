/**
 * Domain errors: expected outcomes the core reports to its callers.
 * Each code maps to exactly one HTTP status and one GraphQL `extensions.code`.
 */
export const errorStatus = {
  invalid_request: 400,
  invalid_token: 400,
  unsupported_link: 400,
  not_subscribed: 400,
  invalid_signature: 400,
  conflicting_keys: 400,
  fast_lane_unavailable: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  transcript_locked: 402,
  not_found: 404,
  method_not_allowed: 405,
  not_transcribed: 409,
  already_subscribed: 409,
  billing_not_configured: 409,
  payload_too_large: 413,
  too_many_attempts: 429,
  rate_limited: 429,
  header_too_large: 431,
  upstream_failed: 502,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Shorthand for the most common case: a 400 naming the offending field. */
export function invalid(field: string, message: string): DomainError {
  return new DomainError('invalid_request', `${field}: ${message}`, { field });
}

/** A 404 naming the field whose value names nothing (each API then spells the field its own way). */
export function notFound(field: string, message: string): DomainError {
  return new DomainError('not_found', `${field}: ${message}`, { field });
}
