import {
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  valueFromASTUntyped,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import type { Actor } from '../core/accounts/actor.js';
import { findBadValue } from '../core/door/bad-input.js';
import type { Credentials } from '../core/door/credentials.js';
import type { Admission, Call, Door } from '../core/door/door.js';
import { type OperationName, isOperationName } from '../core/door/operations.js';
import { DomainError, errorStatus, invalid } from '../core/errors.js';
import { databaseUnavailable } from '../infra/db/unavailable.js';
import { LIMIT_RULES } from './limits.js';

type Variables = Record<string, unknown> | null | undefined;

export function toGraphQLError(err: unknown): GraphQLError {
  const known = err instanceof DomainError ? err : databaseUnavailable(err);
  if (known) {
    // Over HTTP, yoga answers with the status and headers; over graphql-ws the client reads the code,
    // and `retryAfter` (seconds) says when to try again, as the Retry-After header does over HTTP.
    const retryAfter = known.details?.retryAfter;
    const http = { status: errorStatus[known.code], ...(retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {}) };
    const later = retryAfter ? { retryAfter } : {};
    const field = known.details?.field;
    if (typeof field !== 'string') return new GraphQLError(known.message, { extensions: { code: known.code, ...later, http } });
    // The core names REST's fields (`webhook_url: …`, `apple_id, feed_url, url: give at least one of
    // apple_id, …`); GraphQL's arguments are camelCase, wherever the message names them.
    const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    const message = known.message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) => (field.split(', ').includes(word) ? camel(word) : word));
    return new GraphQLError(message, { extensions: { code: known.code, field: camel(field), ...later, http } });
  }
  return new GraphQLError('Something went wrong on our side; it has been logged.', { extensions: { code: 'internal' } });
}

/** The operation a root field declares in its `operation` extension. */
export function fieldOperation(type: GraphQLObjectType | null | undefined, field: string): OperationName | null {
  const name = type?.getFields()[field]?.extensions?.operation;
  return typeof name === 'string' && isOperationName(name) ? name : null;
}

function valueOf(node: ValueNode | undefined, variables: Variables): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) return variables?.[node.name.value];
  if (node.kind === Kind.STRING || node.kind === Kind.ENUM) return node.value;
  if (node.kind === Kind.BOOLEAN) return node.value;
  return undefined;
}

/** False when `@skip(if: true)` or `@include(if: false)` leaves the selection out. */
function included(directives: readonly DirectiveNode[] | undefined, variables: Variables): boolean {
  for (const d of directives ?? []) {
    const cond = valueOf(d.arguments?.find((a) => a.name.value === 'if')?.value, variables);
    if (d.name.value === 'skip' && cond === true) return false;
    if (d.name.value === 'include' && cond === false) return false;
  }
  return true;
}

interface RootField {
  name: string;
  transcriptId?: string;
}

/**
 * The variables an operation runs with: those sent, and the defaults its
 * definitions give the others (`query ($id: String = "…")`), as execution
 * coerces them. A variable sent as null stays null.
 */
function effectiveVariables(op: OperationDefinitionNode, sent: Variables): Variables {
  const defaults = op.variableDefinitions?.filter((d) => d.defaultValue && !(sent && Object.hasOwn(sent, d.variable.name.value)));
  if (!defaults?.length) return sent;
  return { ...Object.fromEntries(defaults.map((d) => [d.variable.name.value, valueFromASTUntyped(d.defaultValue!)])), ...sent };
}

/**
 * The root fields an operation executes, merged as GraphQL executes them: one
 * per response key (so `{me{credits} me{plan}}` is one field and `{a: me b: me}`
 * two), each fragment spread once, `@skip`/`@include` applied, variables left
 * out taking their defaults.
 */
export function executedRootFields(op: OperationDefinitionNode, document: DocumentNode, sent: Variables): RootField[] {
  const variables = effectiveVariables(op, sent);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const byKey = new Map<string, RootField>();
  const spread = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (!included(s.directives, variables)) continue;
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value;
        if (byKey.has(key)) continue;
        const id = valueOf(s.arguments?.find((a) => a.name.value === 'transcriptId')?.value, variables);
        byKey.set(key, typeof id === 'string' ? { name: s.name.value, transcriptId: id } : { name: s.name.value });
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else if (!spread.has(s.name.value)) {
        spread.add(s.name.value);
        const f = fragments.get(s.name.value);
        if (f) walk(f.selectionSet);
      }
    }
  };
  walk(op.selectionSet);
  return [...byKey.values()];
}

/** One GraphQL operation as a client sends it, over HTTP, SSE or graphql-ws. */
export interface OperationParams {
  query?: string | null;
  operationName?: string | null;
  variables?: Variables;
}

const UNKNOWN: Call[] = [{ operation: 'unknownCall' }];

/** What a GraphQL request makes through the door, and why it must not run, if it must not. */
export interface ReadCalls {
  calls: Call[];
  refusal: DomainError | null;
}

/**
 * Every mutation field acts (charges, unlocks, queues, rotates) and is
 * non-null, so one failing field nulls the whole `data`: what the fields
 * before it did (credits charged, a job queued, a new key) would be done but
 * never shown. A mutation therefore runs one field; it is refused before
 * anything runs otherwise.
 */
const ONE_MUTATION_FIELD = invalid('query', 'a mutation runs one field (aliases included); send each as its own request, so that one failing cannot hide what another did');

/**
 * Why a valid document has no operation to run: `operationName` names none
 * of its operations, or is left out of a document of several. Said, naming
 * the parameter, where yoga would answer only that it could not determine
 * the operation.
 */
function noOperation(doc: DocumentNode, operationName: unknown): DomainError {
  if (typeof operationName !== 'string' && operationName != null) return invalid('operationName', 'must be a string');
  const names = doc.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : []));
  if (operationName) return invalid('operationName', `the document has no operation named "${operationName}" (it has ${names.join(', ') || 'one without a name'})`);
  return invalid('operationName', `the document has ${names.length} operations (${names.join(', ')}); name the one to run`);
}

/**
 * The calls a GraphQL request makes through the door: one per executed root
 * field that names an operation, and the refusal of a mutation of several
 * fields (see ONE_MUTATION_FIELD). A document that does not parse or validate
 * (the alias limit included), names no operation (refused: see noOperation), or selects only
 * `__typename` and introspection is one `unknownCall`, so a keyed request is
 * never free and a refused one costs 1.
 */
export function createCallReader(schema: GraphQLSchema) {
  // A document is read once per distinct text: whether it parses and validates
  // (spec rules and the limits yoga validates with) does not change between requests.
  // The rules are execution's own: a document refused here and run there would run
  // its fields for one request, and a mutation of several fields unrefused.
  const rules = [...specifiedRules, ...LIMIT_RULES];
  const documents = new LRUCache<string, DocumentNode | false>({ max: 1000 });
  function parsed(query: string): DocumentNode | null {
    let doc = documents.get(query);
    if (doc === undefined) {
      try {
        doc = parse(query, { noLocation: true });
        if (validate(schema, doc, rules).length > 0) doc = false;
      } catch {
        doc = false;
      }
      documents.set(query, doc);
    }
    return doc || null;
  }
  const unknown: ReadCalls = { calls: UNKNOWN, refusal: null };
  return (params: OperationParams): ReadCalls => {
    const doc = typeof params.query === 'string' ? parsed(params.query) : null;
    if (!doc) return unknown;
    let op: OperationDefinitionNode | null | undefined;
    try {
      op = getOperationAST(doc, params.operationName);
    } catch {
      op = null;
    }
    if (!op) return { calls: UNKNOWN, refusal: noOperation(doc, params.operationName) };
    const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
    const fields = executedRootFields(op, doc, params.variables);
    if (op.operation === 'mutation' && fields.filter((f) => !f.name.startsWith('__')).length > 1) return { calls: UNKNOWN, refusal: ONE_MUTATION_FIELD };
    const calls: Call[] = [];
    for (const f of fields) {
      const operation = fieldOperation(root, f.name);
      if (operation) calls.push(f.transcriptId === undefined ? { operation } : { operation, input: { transcriptId: f.transcriptId } });
    }
    return calls.length ? { calls, refusal: null } : unknown;
  };
}

export type CallReader = ReturnType<typeof createCallReader>;

/** NUL characters and absurd nesting in variables, refused as REST refuses them in bodies. */
export function badVariables(variables: unknown): DomainError | null {
  const bad = findBadValue(variables ?? {}, 'variables', 0);
  return bad ? invalid(bad.path, bad.why) : null;
}

/** Who sends an operation: credentials read per request (HTTP, SSE) or the actor of a graphql-ws handshake. */
export type GraphQLCaller = { credentials: Credentials } | { actor: Actor };

/**
 * The one admission of a GraphQL operation, whatever its transport: counted
 * from its text before it is parsed for execution (see `createCallReader`),
 * so an invalid document costs the same over HTTP and graphql-ws. `refusal`
 * is the error to answer instead of executing, if any.
 */
export async function admitOperation(door: Door, readCalls: CallReader, params: OperationParams, caller: GraphQLCaller): Promise<{ admission: Admission; refusal: DomainError | null }> {
  const { calls, refusal } = readCalls(params);
  const admission = 'actor' in caller ? await door.admitActor(calls, caller.actor) : await door.admit(calls, caller.credentials);
  return { admission, refusal: admission.error ?? refusal ?? badVariables(params.variables) };
}
