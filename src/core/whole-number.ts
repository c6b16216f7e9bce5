import { invalid } from './errors.js';

/**
 * A count a caller gives as a number or as query text, read by one rule on
 * every route: digits only (no `1e3`, `0x10`, `2.5` or signs), from 1 to
 * `max`; missing or empty means `default`.
 * @throws DomainError `invalid_request` naming `field`.
 * @example wholeNumber('25', 'per', { default: 20, max: 50 }) // 25
 */
export function wholeNumber(value: number | string | null | undefined, field: string, limits: { default: number; max?: number }): number {
  if (value === undefined || value === null || value === '') return limits.default;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  const max = limits.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw invalid(field, limits.max === undefined ? 'must be a whole number from 1' : `must be a whole number from 1 to ${max}`);
  return n;
}
