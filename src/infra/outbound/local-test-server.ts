import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { OutboundError } from './outbound-error.js';

/** A real server on 127.0.0.1 and an ephemeral port, for tests of outbound code. */
export interface LocalServer {
  port: number;
  /** `127.0.0.1:<port>`, as the client's allow list expects it. */
  endpoint: string;
  /** Absolute URL on this server. */
  url(path?: string): string;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Starts an http server, or an https one when `tls` holds a key and cert.
 * `close` also destroys open sockets, so a test that trickles or streams
 * forever still ends.
 */
export async function startLocalServer(handler: Handler, tls?: { key: string; cert: string }): Promise<LocalServer> {
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  const sockets = new Set<Socket>();
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = tls ? 'https' : 'http';
  return {
    port,
    endpoint: `127.0.0.1:${port}`,
    url: (path = '/') => `${scheme}://127.0.0.1:${port}${path}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The error a call that must fail failed with. */
export async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (err) {
    return err as OutboundError;
  }
  throw new Error('expected the call to fail');
}
