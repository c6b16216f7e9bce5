import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OperatorError } from '../operator-error.js';
import { processAlive } from '../process-alive.js';

/** Who holds a PGlite data directory, as written in its lock file. */
interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
  /**
   * When the holding process started (ms since the epoch). With the pid, it
   * tells this process from an earlier one that had the same pid: a container
   * restarted after a SIGKILL runs as pid 1 on the same host name again.
   */
  started?: number;
}

/** A second process tried to open a PGlite data directory that a running Podtext holds. */
export class DataDirInUseError extends OperatorError {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The PGlite data directory ${dir} is in use by a running Podtext (pid ${holder.pid} on ${holder.host}, "${holder.command}", since ${holder.since}). ` +
        'PGlite serves one process only, and a second one would lose what it writes. Stop that server first, then run this command; ' +
        'or run Podtext on PostgreSQL (DATABASE_URL), where admin commands work alongside running servers.',
    );
    this.name = 'DataDirInUseError';
  }
}

async function readHolder(file: string): Promise<LockHolder | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}

/** Only a holder known to be gone is overruled; one on another host cannot be checked. */
function stillHeld(holder: LockHolder, me: LockHolder): boolean {
  if (holder.host !== me.host) return true;
  // Our own pid is this very process (which must not open the directory twice) or a dead earlier one.
  if (holder.pid === me.pid) return holder.started === me.started;
  return processAlive(holder.pid);
}

/**
 * Takes the one lock on a PGlite data directory (a file beside it, created
 * exclusively), so that an admin command cannot open the directory a server
 * is using. A lock left by a process that no longer runs (killed, crashed,
 * its container restarted under the same pid) is taken over.
 * @throws DataDirInUseError naming the process that holds it.
 */
export async function lockDataDir(dir: string): Promise<{ release(): Promise<void> }> {
  const file = `${dir}.lock`;
  const me: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    command: [path.basename(process.argv[1] ?? 'node'), ...process.argv.slice(2)].join(' '),
    since: new Date().toISOString(),
    started: performance.timeOrigin,
  };
  const content = JSON.stringify(me);
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, content, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const holder = await readHolder(file);
      if (holder && stillHeld(holder, me)) throw new DataDirInUseError(dir, holder);
      await unlink(file).catch(() => undefined);
    }
  }
  // A process that exits without closing (an uncaught error) leaves no lock behind.
  const onExit = () => {
    try {
      if (readFileSync(file, 'utf8') === content) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  return {
    async release() {
      process.off('exit', onExit);
      if ((await readFile(file, 'utf8').catch(() => null)) === content) await unlink(file).catch(() => undefined);
    },
  };
}
