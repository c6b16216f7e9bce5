import { builder } from './builder.js';
import './types/account.js';

/** Imports every type file, then builds the schema once. */
export function buildSchema() {
  return builder.toSchema({ sortSchema: true });
}
