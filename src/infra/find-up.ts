import { existsSync } from 'node:fs';
import path from 'node:path';

/** The nearest `relative` path at or above `from`: sources and the built bundle sit at different depths. */
export function findUp(relative: string, from: string): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${relative} not found above ${from}`);
  }
}
