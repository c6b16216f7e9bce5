import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalServer, startLocalServer } from '../../../src/infra/outbound/local-test-server.js';

/** One request as a receiver saw it. */
export interface Received {
  /** Wall-clock time of arrival, ms. */
  arrivedAt: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  rawBody: string;
}

/** What the receiver does with the n-th request (0-based). */
export type Behaviour = (n: number, req: IncomingMessage, res: ServerResponse) => void;

export interface Receiver extends LocalServer {
  received: Received[];
  /** Changes what the next requests get. Default: 200 `ok`. */
  behave(b: Behaviour): void;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
}

export const answer = (status: number, headers: Record<string, string> = {}): Behaviour => (_n, _req, res) => {
  res.writeHead(status, headers).end(status < 300 ? 'ok' : 'no');
};

/** A real receiver on 127.0.0.1 that records every request; https when `tls` is given. */
export async function startReceiver(tls?: { key: string; cert: string }): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: Behaviour = answer(200);
  const waiters: (() => void)[] = [];
  const server = await startLocalServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const n = received.length;
      received.push({ arrivedAt: Date.now(), method: req.method ?? '', path: req.url ?? '', headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      for (const w of waiters.splice(0)) w();
      behaviour(n, req, res);
    });
  }, tls);
  return {
    ...server,
    received,
    behave: (b) => {
      behaviour = b;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
  };
}

/** A throwaway CA and a certificate for localhost and 127.0.0.1 signed by it. */
export async function makeCertificates(): Promise<{ ca: string; key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'podtext-webhook-tls-'));
  try {
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Webhook Test CA');
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
    await writeFile(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext');
    return {
      ca: await readFile(join(dir, 'ca.pem'), 'utf8'),
      key: await readFile(join(dir, 'server.key'), 'utf8'),
      cert: await readFile(join(dir, 'server.pem'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
