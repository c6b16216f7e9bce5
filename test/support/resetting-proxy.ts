import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a server, standing for what sits between Podtext
 * and PostgreSQL in production (a pooler, a load balancer, a NAT). While
 * `resetting` is on, every byte a client sends is answered with a TCP reset
 * (RST) instead of being passed on, as a dropped NAT entry or a restarted
 * balancer does. While `silent` is on, bytes either way are dropped without a
 * word, as on a link cut without a close (a vanished host, a partition).
 */
export async function startResettingProxy(target: URL): Promise<{ url(original: string): string; resetting: boolean; silent: boolean; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { resetting: false, silent: false };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (state.silent) return;
      if (state.resetting) {
        client.resetAndDestroy();
        upstream.destroy();
      } else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!state.silent) client.write(chunk);
    });
    client.on('close', drop).on('error', drop);
    upstream.on('close', drop).on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url(original) {
      const u = new URL(original);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    get resetting() {
      return state.resetting;
    },
    set resetting(on: boolean) {
      state.resetting = on;
    },
    get silent() {
      return state.silent;
    },
    set silent(on: boolean) {
      state.silent = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
