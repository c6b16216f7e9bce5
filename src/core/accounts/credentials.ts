import { DomainError } from '../errors.js';

/**
 * The key a caller sent, from `Authorization: Bearer` or `X-Api-Key`.
 * Both present and different is ambiguous: `conflicting_keys`.
 * @returns null when no key was sent.
 */
export function keyFromHeaders(authorization: string | null | undefined, xApiKey: string | null | undefined): string | null {
  let bearer: string | null = null;
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new DomainError('unauthorized', 'Authorization must be "Bearer <API key>"');
    bearer = m[1]!;
  }
  const header = xApiKey?.trim() || null;
  if (bearer && header && bearer !== header) {
    throw new DomainError('conflicting_keys', 'Authorization and X-Api-Key carry different keys; send one.');
  }
  return bearer ?? header;
}
