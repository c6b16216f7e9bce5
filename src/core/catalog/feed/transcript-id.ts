import { createHash } from 'node:crypto';

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
