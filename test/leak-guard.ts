import http from 'node:http';
import https from 'node:https';
import { afterAll } from 'vitest';

/**
 * Fails a test file that leaves something running after its last hook: a
 * server, socket, child process, worker, subscription or a timer that keeps
 * the process alive. Resources are compared by kind against what the file
 * started with; closing sockets get a moment to finish closing.
 *
 * Idle keep-alive connections that a client pool holds on the test's behalf
 * (fetch's global dispatcher, Node's global HTTP agents) are not the test's
 * to close: they are closed here first, so what remains is what the file left.
 */
const IGNORED = new Set(['TTYWrap', 'PipeWrap', 'FSReqPromise', 'FSReqCallback', 'GetAddrInfoReqWrap']);
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');

function counts(): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) if (!IGNORED.has(r)) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
}

function extra(base: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [kind, n] of counts()) if (n > (base.get(kind) ?? 0)) out.push(`${n - (base.get(kind) ?? 0)} × ${kind}`);
  return out;
}

type Dispatcher = { close(): Promise<void>; constructor: new () => Dispatcher };

/** Closes fetch's pooled connections, leaving a fresh pool in place of the old one. */
async function closeIdlePools(): Promise<void> {
  const g = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const dispatcher = g[DISPATCHER];
  if (dispatcher) {
    g[DISPATCHER] = new dispatcher.constructor();
    // A request still in flight here would be the file's own leak; do not wait on it for ever.
    await Promise.race([dispatcher.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
  http.globalAgent.destroy();
  https.globalAgent.destroy();
}

const baseline = counts();

afterAll(async () => {
  await closeIdlePools();
  let left = extra(baseline);
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = extra(baseline);
  }
  if (left.length > 0) throw new Error(`This test file left running: ${left.join(', ')}. Close servers, sockets, workers and timers in afterAll.`);
});
