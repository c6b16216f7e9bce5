import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './types/account.js';
import './types/ai-search.js';
import './types/billing.js';
import './types/chart.js';
import './types/discovery.js';
import './types/episode.js';
import './types/job.js';
import './types/show.js';
import './types/transcript.js';
import './types/webhook.js';

let built: GraphQLSchema | undefined;

/** Imports every type file, then builds the schema once. */
export function buildSchema(): GraphQLSchema {
  built ??= builder.toSchema({ sortSchema: true });
  return built;
}
