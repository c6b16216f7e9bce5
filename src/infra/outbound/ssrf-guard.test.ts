import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startLocalServer, type LocalServer } from './local-test-server.js';
import { createOutboundClient } from './outbound-client.js';

let server: LocalServer;
let other: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    if (req.url === '/to-5432') res.writeHead(302, { location: 'http://127.0.0.1:5432/' }).end();
    else if (req.url === '/to-other') res.writeHead(302, { location: other.url('/') }).end();
    else res.end('hello');
  });
  other = await startLocalServer((_req, res) => res.end('other'));
});

afterAll(async () => {
  await server.close();
  await other.close();
});

describe('address guard, checked against the address connected to', () => {
  // Every host below points at the local server (or nowhere) when not refused.
  const hosts = [
    '127.0.0.1', '127.1', '0', '0.0.0.0', 'localhost', '2130706433', '0x7f000001', '017700000001',
    '0177.0.0.1', '012.0.0.1', '10.0.0.1', '10.255.255.254', '172.16.0.1', '172.31.0.1', '192.168.0.1',
    '192.168.255.255', '100.64.0.1', '198.18.0.1', '240.0.0.1', '169.254.169.254', '[::1]',
    '[::ffff:127.0.0.1]', '[fe80::1]', '[fc00::1]', '[::]',
  ];

  it.each(hosts)('refuses http://%s before any byte is sent', async (host) => {
    const client = createOutboundClient();
    const before = server.connections();
    const err = await failure(client.request(`http://${host}:${server.port}/`, { timeoutMs: 3000 }));
    expect(err.code).toBe('blocked_address');
    expect(server.connections()).toBe(before);
  });

  it.each(['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'data:text/plain,hi', 'ftp://example.com/x'])(
    'refuses the scheme of %s',
    async (url) => {
      const err = await failure(createOutboundClient().request(url));
      expect(err.code).toBe('bad_scheme');
    },
  );

  it('refuses http: when httpsOnly', async () => {
    const client = createOutboundClient({ allow: [server.endpoint] });
    const err = await failure(client.request(server.url('/'), { httpsOnly: true }));
    expect(err.code).toBe('bad_scheme');
  });

  it('reaches an allowed endpoint, and only that exact host:port', async () => {
    const client = createOutboundClient({ allow: [server.endpoint] });
    const res = await client.request(server.url('/'));
    expect(res.body.toString()).toBe('hello');
    const err = await failure(client.request(other.url('/')));
    expect(err.code).toBe('blocked_address');
  });

  it('refuses a public-looking name that redirects to 127.0.0.1:5432', async () => {
    // feeds.example.com is allowed and resolves to the local server; its redirect is not.
    const client = createOutboundClient({
      allow: [`feeds.example.com:${server.port}`],
      resolve: async () => ['127.0.0.1'],
    });
    const err = await failure(client.request(`http://feeds.example.com:${server.port}/to-5432`));
    expect(err.code).toBe('blocked_address');
    expect(err.details.url).toBe('http://127.0.0.1:5432/');
  });

  it('refuses a redirect from an allowed endpoint to another private one', async () => {
    const client = createOutboundClient({ allow: [server.endpoint] });
    const err = await failure(client.request(server.url('/to-other')));
    expect(err.code).toBe('blocked_address');
    expect(other.connections()).toBe(0);
  });

  it('refuses a name whose DNS answer changes to 127.0.0.1 between check and connect', async () => {
    let calls = 0;
    const client = createOutboundClient({
      resolve: async () => (++calls === 1 ? ['93.184.216.34'] : ['127.0.0.1']),
    });
    const url = `http://rebind.example.com:${server.port}/`;
    await expect(client.checkUrl(url)).resolves.toBeUndefined();
    const before = server.connections();
    const err = await failure(client.request(url, { timeoutMs: 3000 }));
    expect(err.code).toBe('blocked_address');
    expect(err.details.address).toBe('127.0.0.1');
    expect(calls).toBe(2);
    expect(server.connections()).toBe(before);
  });

  it.each([
    [['93.184.216.34', '127.0.0.1']],
    [['2606:4700::1', '::1']],
    [['::ffff:10.0.0.1']],
  ])('refuses a name whose answer includes a private address: %j', async (answer) => {
    const client = createOutboundClient({ resolve: async () => answer });
    const err = await failure(client.request(`http://mixed.example.com:${server.port}/`, { timeoutMs: 3000 }));
    expect(err.code).toBe('blocked_address');
    await expect(client.checkUrl(`http://mixed.example.com:${server.port}/`)).rejects.toMatchObject({
      code: 'blocked_address',
    });
  });

  it('checkUrl refuses private literals and accepts allowed endpoints', async () => {
    const client = createOutboundClient({ allow: [server.endpoint] });
    await expect(client.checkUrl('http://169.254.169.254/latest/meta-data/')).rejects.toMatchObject({
      code: 'blocked_address',
    });
    await expect(client.checkUrl(server.url('/'))).resolves.toBeUndefined();
    await expect(client.checkUrl('file:///etc/passwd')).rejects.toMatchObject({ code: 'bad_scheme' });
  });
});
