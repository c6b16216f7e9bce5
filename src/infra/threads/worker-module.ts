import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's entry module `name`, beside `caller` (an `import.meta.url`)
 * with the same extension: built JavaScript beside the bundle, or TypeScript
 * (tests, benchmarks) loaded through tsx, which Node 20 cannot do alone.
 * Null when there is none (a bundle built without it, or no tsx to load it):
 * the caller then does the work on its own thread.
 */
export function workerModule(caller: string, name: string): URL | null {
  const extension = path.extname(fileURLToPath(caller));
  const entry = new URL(`./${name}${extension}`, caller);
  if (!existsSync(fileURLToPath(entry))) return null;
  if (extension !== '.ts') return entry;
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return null;
  }
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}
