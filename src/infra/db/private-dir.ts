import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Creates `dir` (and its parents) reachable by this process's user only, and
 * closes an existing one that group or others could enter. PGlite writes its
 * files with mode 666, so the directory is all that keeps other users of the
 * machine from reading or rewriting accounts, key hashes and the ledger, as
 * PostgreSQL's own 0700 data directory does.
 *
 * @example await ensurePrivateDir('/var/lib/podtext/pglite')
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  // The parent first, as it is: a parent that is a file fails here as itself (EEXIST), not as its child (ENOTDIR).
  await mkdir(path.dirname(dir), { recursive: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { mode, uid } = await stat(dir);
  // Another user's directory is theirs to set; chmod would fail anyway.
  const mine = typeof process.getuid !== 'function' || uid === process.getuid();
  if (mine && (mode & 0o077) !== 0) await chmod(dir, mode & 0o700);
}
