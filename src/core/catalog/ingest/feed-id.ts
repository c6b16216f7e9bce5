import type { PrismaClient } from '../../../generated/prisma/client.js';

/**
 * First id Podtext gives a show the Podcast Index does not know (10^12).
 * Podcast Index ids are in the millions, so everything from here up is ours
 * and a later Podcast Index import can never collide with it. Ids come from
 * the sequence `shows_own_id_seq`, which starts here.
 */
export const OWN_FEED_ID_START = 1_000_000_000_000n;

/**
 * First id a directory row may not take: Podtext's own shows live from here
 * up (the shared show of requested episodes at 999,999,999,998, the public
 * sample's at 999,999,999,999, then {@link OWN_FEED_ID_START}).
 */
export const RESERVED_FEED_IDS_FROM = 999_999_999_998n;

/** Whether `feedId` was allocated by Podtext rather than by the Podcast Index. */
export function isOwnFeedId(feedId: bigint): boolean {
  return feedId >= OWN_FEED_ID_START;
}

/** Takes the next id of Podtext's own range; see {@link OWN_FEED_ID_START}. */
export async function allocateFeedId(db: PrismaClient): Promise<bigint> {
  const [row] = await db.$queryRawUnsafe<{ id: bigint }[]>(`SELECT nextval('shows_own_id_seq') AS id`);
  return BigInt(row.id);
}
