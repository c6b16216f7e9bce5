import { invalid } from '../../errors.js';
import { wholeNumber } from '../../whole-number.js';

/** Longest search query accepted, in characters. */
export const MAX_QUERY_LENGTH = 500;
/** Shows a search returns at most. */
export const SEARCH_LIMIT = 25;
/** Episode list length: default and maximum (spec 4.2, 8). */
export const EPISODE_LIST = { default: 100, max: 1000 } as const;
/** Trending list length: default and maximum (spec 4.2, 8). */
export const TRENDING_LIST = { default: 24, max: 100 } as const;
/** Trending language when none is given. */
export const TRENDING_DEFAULT_LANG = 'en';

const LARGEST_ID = 9_223_372_036_854_775_807n;

/**
 * A feed id from a path, a query or a GraphQL argument: a positive integer.
 * @throws DomainError `invalid_request` naming `field`.
 */
export function parseFeedId(value: string | number | bigint, field = 'feed_id'): bigint {
  const text = String(value).trim();
  if (!/^[0-9]{1,19}$/.test(text) || BigInt(text) < 1n || BigInt(text) > LARGEST_ID) throw invalid(field, 'must be a positive integer');
  return BigInt(text);
}

/** An Apple (iTunes) collection id: a positive integer. */
export function parseAppleId(value: string | number | bigint, field = 'apple_id'): bigint {
  return parseFeedId(value, field);
}

/**
 * A list length between 1 and `limits.max`, `limits.default` when absent.
 * @throws DomainError `invalid_request` naming `field`.
 */
export function listLength(value: number | string | null | undefined, limits: { default: number; max: number }, field: string): number {
  return wholeNumber(value, field, limits);
}

/**
 * The search query, trimmed.
 * @throws DomainError `invalid_request` naming `q` when empty or longer than {@link MAX_QUERY_LENGTH}.
 */
export function searchQuery(q: string | null | undefined): string {
  const text = (q ?? '').trim();
  if (!text) throw invalid('q', 'required: a show name, a podcast-directory link or an RSS feed URL');
  // Characters as a reader counts them (code points), not UTF-16 units: an emoji is one.
  if ([...text].length > MAX_QUERY_LENGTH) throw invalid('q', `at most ${MAX_QUERY_LENGTH} characters`);
  return text;
}
