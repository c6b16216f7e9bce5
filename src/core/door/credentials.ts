import { DomainError, invalid } from '../errors.js';

/**
 * How a caller identifies itself, as received by any transport. Header
 * values are lists because a header sent twice is refused, not guessed at.
 */
export interface Credentials {
  /** Every `Authorization` header line. */
  authorization?: readonly string[];
  /** Every `X-Api-Key` header line. */
  apiKey?: readonly string[];
  /** The website's session token (its cookie), when the call came from a signed-in browser. */
  session?: string | null;
}

function single(values: readonly string[] | undefined, name: string): string | null {
  if (!values || values.length === 0) return null;
  // Fetch's Headers joins repeated headers with ", "; a key never holds a comma.
  if (values.length > 1 || values[0]!.includes(',')) throw invalid(name, 'sent more than once; send one');
  return values[0]!;
}

/**
 * The key a caller sent, from `Authorization: Bearer` or `X-Api-Key`.
 * Both present and different is ambiguous: `conflicting_keys`; either header
 * sent twice: `invalid_request`.
 * @returns null when no key was sent.
 */
export function keyFromCredentials(credentials: Credentials): string | null {
  const authorization = single(credentials.authorization, 'Authorization');
  let bearer: string | null = null;
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new DomainError('unauthorized', 'Authorization must be "Bearer <API key>"');
    bearer = m[1]!;
  }
  const header = single(credentials.apiKey, 'X-Api-Key')?.trim() || null;
  if (bearer && header && bearer !== header) {
    throw new DomainError('conflicting_keys', 'Authorization and X-Api-Key carry different keys; send one.');
  }
  return bearer ?? header;
}
