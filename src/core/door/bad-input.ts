/**
 * Input no operation should see, whatever transport brought it: NUL
 * characters (PostgreSQL text cannot hold them), lone surrogates (`"\\ud800"`
 * in JSON: half of a UTF-16 pair, no character, stored as U+FFFD) and absurd nesting.
 */

/** Deepest JSON nesting accepted. Default: 32. */
export const MAX_DEPTH = 32;

/** A surrogate code unit without its pair: with the `u` flag, a pair is one code point and does not match. */
const LONE_SURROGATE = /\p{Cs}/u;

function badText(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(text)) return 'contains a lone surrogate (half of a UTF-16 pair, no character)';
  return null;
}

/**
 * The path of the first string holding a NUL or a lone surrogate, or of nesting past MAX_DEPTH.
 * Paths are written as validation errors write them (`episodes.0.guid`).
 * @example findBadValue({ a: ['x\u0000'] }, '', 0) // { path: 'a.0', why: 'contains a NUL character' }
 */
export function findBadValue(value: unknown, path: string, depth: number): { path: string; why: string } | null {
  if (depth > MAX_DEPTH) return { path, why: `nested deeper than ${MAX_DEPTH} levels` };
  if (typeof value === 'string') {
    const why = badText(value);
    return why ? { path, why } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = findBadValue(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (bad) return bad;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return { path: path ? `${path}.${k.replace(/\u0000/g, '\\0')}` : k, why: 'key contains a NUL character' };
      const bad = findBadValue(v, path ? `${path}.${k}` : k, depth + 1);
      if (bad) return bad;
    }
  }
  return null;
}


/**
 * Whether `value` nests deeper than `max` arrays and objects: such a value
 * (which `JSON.parse` builds without complaint) overflows the stack of
 * `JSON.stringify`. Recursion stops at `max`, so this never does.
 * @example nestedDeeperThan(JSON.parse('[[[1]]]'), 2) // true
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (!value || typeof value !== 'object') return false;
  if (max === 0) return true;
  for (const v of Object.values(value)) if (nestedDeeperThan(v, max - 1)) return true;
  return false;
}
