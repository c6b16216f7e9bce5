import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db/open-database.js';
import { pgliteTemplate } from '../support/databases.js';

// PGlite writes its files world-readable and world-writable (mode 666): the
// directory holding them is what keeps other users of the machine away from
// the accounts, key hashes and ledger, as PostgreSQL's own 0700 data directory does.
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-perms-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function groupOrOtherBits(dir: string): Promise<number> {
  return (await stat(dir)).mode & 0o077;
}

describe('the PGlite data directory', () => {
  it('is created reachable by its owner only', async () => {
    const pgliteDir = path.join(dataDir, 'pglite');
    const db = await openDatabase({ pgliteDir, pgliteTemplate: await pgliteTemplate(), migrate: false });
    try {
      expect(await groupOrOtherBits(pgliteDir)).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('is closed to others when an older start left it open', async () => {
    const pgliteDir = path.join(dataDir, 'pglite');
    await mkdir(pgliteDir);
    await chmod(pgliteDir, 0o755);
    const db = await openDatabase({ pgliteDir, pgliteTemplate: await pgliteTemplate(), migrate: false });
    try {
      expect(await groupOrOtherBits(pgliteDir)).toBe(0);
    } finally {
      await db.close();
    }
  });
});
