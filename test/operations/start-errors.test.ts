import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { hasPostgres } from '../support/databases.js';
import { freePort } from '../support/free-port.js';
import { processEnv, repo } from './support/podtext-process.js';

const run = promisify(execFile);
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** `serve` (or another command) with `env`; it must stop by itself. */
async function start(env: Record<string, string>, command = ['serve']): Promise<{ code: number; stderr: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-start-'));
  scratch.push(dir);
  try {
    await run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...command], { cwd: repo, env: processEnv(dir, { LOG_LEVEL: 'silent', ...env }), timeout: 60_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

/** A TCP server that is not PostgreSQL, each connection handed to `onSocket`. */
async function standIn(onSocket: (socket: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket.on('close', () => sockets.delete(socket)));
    onSocket(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// A database that cannot be opened is the operator's to mend: the message names the setting, without a stack.
describe('a start whose database cannot be opened', () => {
  it('names DATA_DIR when it is a file', async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'podtext-start-')), 'not-a-directory');
    scratch.push(path.dirname(file));
    await writeFile(file, 'x');
    const r = await start({ DATA_DIR: file });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Cannot open the database:\n  DATA_DIR: ${file} is a file, not a directory.\n`);
  }, 60_000);

  it('names DATABASE_URL when nothing listens there, without its password', async () => {
    const port = await freePort();
    const r = await start({ DATABASE_URL: `postgres://podtext:hunter2@127.0.0.1:${port}/podtext` });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Cannot open the database:\n  DATABASE_URL: nothing accepts connections at that host and port (is PostgreSQL running?) (postgres://podtext:***@127.0.0.1:${port}/podtext).\n`);
  }, 60_000);

  it('names DATABASE_URL when what listens there closes the connection or never answers', async () => {
    // A port forwarder with no database behind it accepts and closes; a black hole accepts and stays silent.
    const closing = await standIn((socket) => socket.destroy());
    const silent = await standIn(() => undefined);
    try {
      const [closed, timedOut] = await Promise.all([
        start({ DATABASE_URL: `postgres://podtext:hunter2@127.0.0.1:${closing.port}/podtext` }),
        start({ DATABASE_URL: `postgres://podtext:hunter2@127.0.0.1:${silent.port}/podtext` }),
      ]);
      expect(closed).toEqual({ code: 1, stderr: `Cannot open the database:\n  DATABASE_URL: the server there closed the connection without answering (is it PostgreSQL?) (postgres://podtext:***@127.0.0.1:${closing.port}/podtext).\n` });
      expect(timedOut).toEqual({ code: 1, stderr: `Cannot open the database:\n  DATABASE_URL: the server did not answer in time (postgres://podtext:***@127.0.0.1:${silent.port}/podtext).\n` });
    } finally {
      await closing.close();
      await silent.close();
    }
  }, 60_000);

  it('an admin command names DATABASE_URL as a start does', async () => {
    const port = await freePort();
    const r = await start({ DATABASE_URL: `postgres://podtext:hunter2@127.0.0.1:${port}/podtext` }, ['show-account', 'someone@example.com']);
    expect(r).toEqual({ code: 1, stderr: `Cannot open the database:\n  DATABASE_URL: nothing accepts connections at that host and port (is PostgreSQL running?) (postgres://podtext:***@127.0.0.1:${port}/podtext).\n` });
  }, 60_000);

  it.skipIf(!hasPostgres())('names DATABASE_URL when the password is refused or the database does not exist', async () => {
    const wrong = new URL(process.env.TEST_DATABASE_URL!);
    wrong.password = 'not-the-password';
    const refused = await start({ DATABASE_URL: wrong.toString() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Cannot open the database:\n {2}DATABASE_URL: the password was refused \(postgres:\/\/[^:]+:\*\*\*@/);
    const missing = new URL(process.env.TEST_DATABASE_URL!);
    missing.pathname = '/podtext_no_such_database';
    const absent = await start({ DATABASE_URL: missing.toString() });
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain('DATABASE_URL: the database does not exist');
    expect(absent.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
