import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { type CsvField, csvRecords } from './csv-records.js';

/** The two published shapes of the Podcast Index feed list. */
export type PodcastIndexFormat = 'csv' | 'sqlite';

/** Tells the SQLite dump (`podcastindex_feeds.db`) from a CSV export by the file's first bytes. */
export async function podcastIndexFormat(file: string): Promise<PodcastIndexFormat> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return bytesRead === 16 && buffer.toString('latin1') === 'SQLite format 3\0' ? 'sqlite' : 'csv';
  } finally {
    await handle.close();
  }
}

/** CSV records of a file, header first, read in 1 MB chunks. */
export function csvFileRecords(file: string): AsyncGenerator<CsvField[]> {
  return csvRecords(createReadStream(file, { highWaterMark: 1024 * 1024 }));
}

function sqlite3Missing(err: NodeJS.ErrnoException): Error {
  return err.code === 'ENOENT'
    ? new Error('the sqlite3 command is needed to read podcastindex_feeds.db (Debian: apt-get install -y sqlite3)')
    : err;
}

/**
 * Streams the `podcasts` table of the SQLite dump as CSV records (header
 * first, ascending id, only ids above `afterId`), through Debian's `sqlite3
 * -csv -header` in a child process, so the database is never loaded here.
 * Returning early stops the child.
 */
export async function* sqliteRecords(file: string, afterId: number): AsyncGenerator<CsvField[]> {
  const sql = `SELECT * FROM podcasts WHERE id > ${Math.trunc(afterId)} ORDER BY id`;
  const child = spawn('sqlite3', ['-readonly', '-csv', '-header', file, sql], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stopped = false;
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-2000)));
  const exited = new Promise<void>((resolve, reject) => {
    child.once('error', (err) => reject(sqlite3Missing(err)));
    child.once('close', (code, sig) => {
      // Stopped by us: SIGTERM, or SIGPIPE when it wrote to the pipe we stopped reading.
      if (code === 0 || stopped) resolve();
      else reject(new Error(`sqlite3 failed (${code ?? sig}): ${stderr.trim() || 'no message'}`));
    });
  });
  // Keeps an early failure (no sqlite3) from surfacing as an unhandled rejection.
  exited.catch(() => undefined);
  let finished = false;
  try {
    // sqlite3 uses an empty field for NULL, which csvRecords already reads as null.
    yield* csvRecords(child.stdout, { nullToken: '' });
    finished = true;
  } finally {
    if (!finished && child.exitCode === null) {
      stopped = true;
      child.kill('SIGTERM');
    }
    await exited;
  }
}

/** Rows of the dump's `podcasts` table above `afterId`, counted by sqlite3 (to size the import). */
export async function sqliteRowCount(file: string, afterId: number): Promise<number> {
  const child = spawn('sqlite3', ['-readonly', file, `SELECT count(*) FROM podcasts WHERE id > ${Math.trunc(afterId)}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  await new Promise<void>((resolve, reject) => {
    child.once('error', (err) => reject(sqlite3Missing(err)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`sqlite3 failed: ${stderr.trim()}`))));
  });
  return Number(out.trim()) || 0;
}
