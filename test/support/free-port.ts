import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 now, for a server that must know its address before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
