import type { PrismaClient, Show } from '../../../generated/prisma/client.js';
import { DomainError, invalid } from '../../errors.js';
import { parseAppleId } from './discovery-input.js';
import { queryKind } from './query-kind.js';
import { streamingLinkError, unsupportedLink } from './search-shows.js';
import { type ShowQuery, findByAppleId, findByFeedUrl, findById } from './show-finders.js';

/** What `lookup` accepts; at least one is required. */
export interface LookupInput {
  /** A podcast-directory link or an RSS feed URL. */
  url?: string | null;
  /** Apple (iTunes) collection id. */
  appleId?: string | number | bigint | null;
  /** The show's RSS feed URL (http/https and a trailing slash do not matter). */
  feedUrl?: string | null;
}

/** Documented in the API: which parameter wins when several are given. */
export const LOOKUP_PRECEDENCE =
  'At least one of `apple_id`, `feed_url` and `url` is required. They are tried in that order and the first that matches a show ' +
  'in the index wins, so a stale `apple_id` still finds the show by its feed. Lookup only reads the index: a feed Podtext does ' +
  'not have yet is added by `GET /search?q=<feed URL>`.';

const given = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '';

/**
 * Finds the one show a directory id, feed URL or link names, reading the
 * index only (no outbound request). See {@link LOOKUP_PRECEDENCE}.
 *
 * @throws DomainError `invalid_request` when no parameter is given or one is
 *   malformed; `unsupported_link` for a streaming-service or unresolvable
 *   directory `url`; `not_found` when nothing matches.
 */
export async function lookupShow(db: PrismaClient, input: LookupInput, query: ShowQuery = {}): Promise<Show> {
  if (!given(input.appleId) && !given(input.feedUrl) && !given(input.url)) {
    throw invalid('apple_id, feed_url, url', 'give at least one of apple_id, feed_url or url');
  }
  const appleId = given(input.appleId) ? parseAppleId(input.appleId!) : null;
  const feedUrl = given(input.feedUrl) ? input.feedUrl!.trim() : null;
  if (feedUrl && !/^https?:\/\/\S+$/i.test(feedUrl)) throw invalid('feed_url', 'must be an http or https URL');
  const link = given(input.url) ? queryKind(input.url!) : null;
  if (link?.kind === 'name') throw invalid('url', 'must be a podcast-directory link or an RSS feed URL');
  if (link?.kind === 'streaming') throw streamingLinkError('url', link.service);
  if (link?.kind === 'directory' && link.target.kind === 'unresolvable') {
    throw unsupportedLink('url', `This ${link.target.directory} link`, link.target.hint);
  }

  const attempts: (() => Promise<Show | null>)[] = [];
  if (appleId !== null) attempts.push(() => findByAppleId(db, appleId, query));
  if (feedUrl) attempts.push(() => findByFeedUrl(db, feedUrl, query));
  if (link?.kind === 'feed') attempts.push(() => findByFeedUrl(db, link.feedUrl, query));
  if (link?.kind === 'directory') {
    const t = link.target;
    if (t.kind === 'apple') attempts.push(() => findByAppleId(db, t.appleId, query));
    if (t.kind === 'feed_id') attempts.push(() => findById(db, t.feedId, query));
    if (t.kind === 'feed_url') attempts.push(() => findByFeedUrl(db, t.feedUrl, query));
  }
  for (const attempt of attempts) {
    const show = await attempt();
    if (show) return show;
  }
  const asked = [appleId !== null && `apple_id=${appleId}`, feedUrl && `feed_url=${feedUrl}`, link && `url=${input.url!.trim()}`].filter(Boolean);
  throw new DomainError('not_found', `No show in the index matches ${asked.join(', ')}.`);
}
