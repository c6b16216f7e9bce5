import { createHash } from 'node:crypto';
import { invalid } from './errors.js';

/** A transcript id: 16 lowercase hex characters (documented as this pattern in openapi.json). */
export const TRANSCRIPT_ID_PATTERN = '^[0-9a-f]{16}$';
export const TRANSCRIPT_ID = new RegExp(TRANSCRIPT_ID_PATTERN);

/**
 * The stable id of an episode's transcript: the first 16 hex characters of
 * the SHA-1 of its guid. Short enough for URLs, and the same on every
 * re-crawl as long as the publisher keeps the guid.
 *
 * @example transcriptIdFor('https://example.com/ep0003') // 16 hex characters
 */
export function transcriptIdFor(guid: string): string {
  return createHash('sha1').update(guid, 'utf8').digest('hex').slice(0, 16);
}

/** `invalid_request` naming `field` unless `value` is 16 lowercase hex digits. */
export function assertTranscriptId(value: string, field = 'transcript_id'): string {
  if (!TRANSCRIPT_ID.test(value)) throw invalid(field, `must be 16 lowercase hex characters (${TRANSCRIPT_ID_PATTERN})`);
  return value;
}
