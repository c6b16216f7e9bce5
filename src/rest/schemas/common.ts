import { z } from '@hono/zod-openapi';
import { type ErrorCode, errorStatus } from '../../core/errors.js';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]).openapi({ description: 'Stable snake_case code; see the table in info.description.' }),
      message: z.string(),
    }),
  })
  .openapi('Error');

/** Largest request body accepted under /api/v1 and by GraphQL, in bytes. Default: 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** `X-RateLimit-*`, on every answer under /api/v1. */
export const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per UTC day for this key (keyless calls: the Free allowance, not metered).', schema: { type: 'integer' as const } },
  'X-RateLimit-Remaining': { description: 'Requests left today for this key.', schema: { type: 'integer' as const } },
};

/** On a 429 or 503: when to try again. */
const retryAfterHeader = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' as const } } };

/** On a 401: the scheme a key is sent with. */
const authenticateHeader = { 'WWW-Authenticate': { description: '`Bearer`: send the key as `Authorization: Bearer <key>` (or in `X-Api-Key`).', schema: { type: 'string' as const } } };

/** Documents a JSON success response with the rate-limit headers. */
export function ok<T extends z.ZodTypeAny>(schema: T, description: string) {
  return { description, headers: rateLimitHeaders, content: { 'application/json': { schema } } };
}

/** Documents the listed error statuses with the error body. */
export function errors(descriptions: Partial<Record<400 | 401 | 402 | 404 | 409 | 413 | 429 | 431 | 500 | 502 | 503, string>>) {
  const out: Record<number, { description: string; headers: typeof rateLimitHeaders; content: { 'application/json': { schema: typeof ErrorSchema } } }> = {};
  for (const [status, description] of Object.entries(descriptions)) {
    const headers = status === '429' || status === '503' ? { ...rateLimitHeaders, ...retryAfterHeader } : status === '401' ? { ...rateLimitHeaders, ...authenticateHeader } : rateLimitHeaders;
    out[Number(status)] = { description: description!, headers, content: { 'application/json': { schema: ErrorSchema } } };
  }
  return out;
}

/** Errors any keyed route can answer. */
export const keyedErrors = {
  400: 'Malformed input (the message names the field), or both auth headers with different keys.',
  401: 'Missing, unknown or retired key.',
  429: 'The daily request allowance is spent (`rate_limited`); `Retry-After` gives the seconds until it resets at 00:00 UTC.',
  503: 'The database is unreachable (`unavailable`); nothing was done. Try again after `Retry-After` seconds.',
} as const;

export const keyed: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

/** Maps a thrown-free status list for docs. */
export const errorCodeTable = Object.entries(errorStatus)
  .map(([code, status]) => `| \`${code}\` | ${status} |`)
  .join('\n');
