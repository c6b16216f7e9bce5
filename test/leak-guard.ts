import { afterAll } from 'vitest';

/**
 * Fails a test file that leaves something running after its last hook: a
 * server, socket, child process, worker, or a timer that keeps the process
 * alive. Resources are compared by kind against what the file started with;
 * closing sockets get a moment to finish closing.
 */
const IGNORED = new Set(['TTYWrap', 'PipeWrap', 'FSReqPromise', 'FSReqCallback', 'GetAddrInfoReqWrap']);

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

const baseline = counts();

afterAll(async () => {
  let left = extra(baseline);
  for (let i = 0; i < 40 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = extra(baseline);
  }
  if (left.length > 0) throw new Error(`This test file left running: ${left.join(', ')}. Close servers, sockets, workers and timers in afterAll.`);
});
