import { hash, randomBytes } from 'node:crypto';

/** Every Podtext key starts with this. */
export const KEY_PREFIX = 'ptk_';

/** A new key: the prefix plus 32 bytes from the CSPRNG, base64url. */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Keys and tokens are found by this hash; the plain value is never stored. */
export function lookupHash(secret: string): string {
  // The one-shot hash: every keyed call computes one.
  return hash('sha256', secret, 'hex');
}

/** A cheap shape check before any lookup. */
export function looksLikeKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length >= KEY_PREFIX.length + 43 && value.length <= 128;
}
