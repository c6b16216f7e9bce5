// What the search benchmarks share: typo queries, timed GETs, and the server
// `npm start` runs (the built bundle) started in its own process.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { searchKey } from '../src/core/catalog/ingest/search-key.js';

export /** A typo a person might make: a letter dropped, two swapped, one replaced, words glued, or all lower case with no punctuation. */
function typo(title: string, i: number): string {
  const name = searchKey(title).name;
  const words = name.split(' ');
  const w = words.reduce((a, b) => (b.length > a.length ? b : a), '');
  const at = Math.max(1, Math.floor(w.length / 2));
  const edits = [
    () => name.replace(w, w.slice(0, at) + w.slice(at + 1)),
    () => name.replace(w, w.slice(0, at - 1) + (w[at] ?? '') + (w[at - 1] ?? '') + w.slice(at + 1)),
    () => name.replace(w, w.slice(0, at) + (w[at] === 'e' ? 'a' : 'e') + w.slice(at + 1)),
    () => words.join(''),
    () => name,
  ];
  return edits[i % edits.length]!();
}

export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

export /** Sequential GETs (one in flight, keep-alive), as a user's client makes them; latency in ms. */
async function timeGets(urls: string[], headers: Record<string, string>): Promise<{ ms: number[]; bodies: string[] }> {
  const ms: number[] = [];
  const bodies: string[] = [];
  for (const url of urls) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    ms.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    bodies.push(body);
  }
  return { ms, bodies };
}

/**
 * Starts a process and waits for the first JSON line of its standard output
 * that `pick` turns into something.
 */
export async function startChild<T>(args: string[], pick: (line: Record<string, unknown>) => T | undefined, env: Record<string, string> = {}): Promise<{ info: T; rssMb(): Promise<number>; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<T>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const found = l.startsWith('{') ? pick(JSON.parse(l) as Record<string, unknown>) : undefined;
      if (found !== undefined) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`bench child exited with ${code}`)));
  });
  return {
    info,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      await exited;
    },
  };
}


export interface BuiltServer {
  url: string;
  /** How long the search index took to load after the start. */
  indexLoadMs: number;
}

/** `node dist/podtext.mjs serve` with `env`; ready once its search index has loaded. */
export function startBuiltServer(env: Record<string, string>) {
  let url = '';
  return startChild<BuiltServer>([fileURLToPath(new URL('../dist/podtext.mjs', import.meta.url)), 'serve'], (line) => {
    if (typeof line.url === 'string') url = line.url;
    return line.msg === 'search index loaded' ? { url, indexLoadMs: Number(line.ms) } : undefined;
  }, { PORT: '0', LOG_LEVEL: 'info', ...env });
}
