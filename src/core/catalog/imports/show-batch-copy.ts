import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { CopyRows } from '../../../infra/db/open-database.js';
import type { Logger } from '../../../infra/logger.js';
import { isUniqueViolation } from '../../transaction.js';
import { writeShowBatch } from './show-batch.js';
import { SHOW_COPY_COLUMNS, showsFromCopyRows } from './show-copy-rows.js';

/**
 * Writes a batch of shows encoded by `showCopyRows` (and settled within the
 * batch first): as one COPY when every row is new, which is the whole of a
 * first import; else, once any row meets a show already holding its id, feed
 * URL or Apple id (a rerun, a resumed batch, a feed added by URL), through
 * {@link writeShowBatch} with all its rules. A failed COPY writes nothing, so
 * the outcome is the same either way. Without `copyRows`, always upserts.
 * @returns whether the rows were copied as new or upserted.
 */
export async function writeShowCopyBatch(db: PrismaClient, copyRows: CopyRows | undefined, rows: Uint8Array, now: Date, log?: Logger): Promise<'copied' | 'upserted'> {
  try {
    if (copyRows) {
      await copyRows('shows', SHOW_COPY_COLUMNS, rows);
      return 'copied';
    }
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  await writeShowBatch(db, showsFromCopyRows(rows), now, log);
  return 'upserted';
}
