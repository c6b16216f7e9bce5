import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './types/account.js';
import './types/transcript.js';

let built: GraphQLSchema | undefined;

/** Imports every type file, then builds the schema once. */
export function buildSchema(): GraphQLSchema {
  built ??= builder.toSchema({ sortSchema: true });
  return built;
}
