import type { OperationName } from '../core/door/operations.js';

/**
 * Marks a root field as the GraphQL face of an operation of the catalogue:
 * the door admits the field's calls by that operation's rule.
 * @example me: t.field({ ...operation('getMe'), type: MeRef, resolve })
 */
export function operation(name: OperationName) {
  return { extensions: { operation: name } } as const;
}
