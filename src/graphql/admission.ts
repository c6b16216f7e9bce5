import { type DocumentNode, type FragmentDefinitionNode, GraphQLError, Kind, type SelectionSetNode, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DomainError, errorStatus } from '../core/errors.js';
import type { MeterResult } from '../core/accounts/metering.js';
import type { GraphQLContext } from './context.js';

/** Root fields anyone may call without a key; they cost 0 requests. */
const KEYLESS_FIELDS = new Set(['registerStart', 'registerConfirm']);
/** Root fields that work without a key for some arguments (the public sample transcript). */
const OPTIONAL_KEY_FIELDS = new Set(['transcript']);

/**
 * Root fields of the operation, aliases and fragments included, so that
 * `{ a: me b: me }` costs 2: metering cannot be dodged by aliasing.
 */
export function rootFields(document: DocumentNode, operationName?: string | null): string[] {
  const op = getOperationAST(document, operationName);
  if (!op) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const out: string[] = [];
  const walk = (set: SelectionSetNode, seen: Set<string>) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) out.push(s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, seen);
      else if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
        const f = fragments.get(s.name.value);
        if (f) walk(f.selectionSet, new Set([...seen, s.name.value]));
      }
    }
  };
  walk(op.selectionSet, new Set());
  return out;
}

export function toGraphQLError(err: unknown): GraphQLError {
  if (err instanceof DomainError) {
    return new GraphQLError(err.message, { extensions: { code: err.code, http: { status: errorStatus[err.code] } } });
  }
  return new GraphQLError('Something went wrong on our side; it has been logged.', { extensions: { code: 'internal' } });
}

async function admitOperation(ctx: GraphQLContext, document: DocumentNode, operationName?: string | null): Promise<GraphQLError | null> {
  const fields = rootFields(document, operationName).filter((f) => !f.startsWith('__'));
  const metered = fields.filter((f) => !KEYLESS_FIELDS.has(f));
  const required = metered.some((f) => !OPTIONAL_KEY_FIELDS.has(f));
  try {
    const result = await ctx.services.gate.admit(ctx.headers, metered.length, required);
    ctx.actor = result.actor;
    ctx.metered.meter = result.meter;
    return null;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'rate_limited') ctx.metered.meter = err.details?.meter as MeterResult;
    return toGraphQLError(err);
  }
}

/** The core gate, applied once per operation before any resolver runs. */
export function admissionPlugin(): Plugin<GraphQLContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const error = await admitOperation(args.contextValue, args.document, args.operationName);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const error = await admitOperation(args.contextValue, args.document, args.operationName);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
