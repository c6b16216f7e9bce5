import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startLocalServer, type LocalServer } from './local-test-server.js';
import { createOutboundClient } from './outbound-client.js';

let dir: string;
let ca: string;
let server: LocalServer;

/** A throwaway CA and a server certificate for localhost and 127.0.0.1 it signed. */
async function makeCertificates(): Promise<{ key: string; cert: string }> {
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem',
    '-days', '1', '-subj', '/CN=Podtext Test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr',
    '-subj', '/CN=localhost');
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext');
  ca = await readFile(join(dir, 'ca.pem'), 'utf8');
  return {
    key: await readFile(join(dir, 'server.key'), 'utf8'),
    cert: await readFile(join(dir, 'server.pem'), 'utf8'),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'podtext-tls-'));
  server = await startLocalServer((_req, res) => res.end('secure hello'), await makeCertificates());
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('https', () => {
  it('verifies the certificate against a trusted CA', async () => {
    const client = createOutboundClient({ allow: [server.endpoint], ca });
    const res = await client.request(server.url('/'), { httpsOnly: true });
    expect(res.body.toString()).toBe('secure hello');
  });

  it('connects by name through the guarded lookup', async () => {
    const client = createOutboundClient({ allow: [`localhost:${server.port}`], ca });
    const res = await client.request(`https://localhost:${server.port}/`);
    expect(res.status).toBe(200);
  });

  it('refuses a certificate from an unknown CA', async () => {
    const client = createOutboundClient({ allow: [server.endpoint] });
    const err = await failure(client.request(server.url('/')));
    expect(err.code).toBe('network');
    expect(err.message).toMatch(/certificate/i);
  });

  it('refuses a certificate for another name', async () => {
    const client = createOutboundClient({
      allow: [`feeds.example.com:${server.port}`],
      resolve: async () => ['127.0.0.1'],
      ca,
    });
    const err = await failure(client.request(`https://feeds.example.com:${server.port}/`));
    expect(err.code).toBe('network');
    expect(err.message).toMatch(/altnames|hostname/i);
  });
});
