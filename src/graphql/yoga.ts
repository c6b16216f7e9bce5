import { GraphQLError } from 'graphql';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { type Plugin, createYoga, isAsyncIterable, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import type { Credentials } from '../core/door/credentials.js';
import { type Admission, KEYLESS_HEADERS } from '../core/door/door.js';
import { DomainError, type ErrorCode, errorStatus } from '../core/errors.js';
import type { Services } from '../core/services.js';
import { type CallReader, admitOperation, createCallReader, toGraphQLError } from './admission.js';
import type { GraphQLContext } from './context.js';
import type { KeyRetirement } from '../core/accounts/key-retirement.js';
import { httpRequestPlugins } from './http-requests.js';
import { queryLimits } from './limits.js';
import { isClientAbort } from '../infra/client-abort.js';
import { databaseTrouble, isDatabaseUnavailable } from '../infra/db/unavailable.js';
import { stampResponse } from '../wire/rate-limit-stamps.js';
import { buildSchema } from './schema.js';

/** Passed per HTTP request: what the caller sent, and what the door decided. */
export interface ContextSlot {
  credentials: Credentials;
  admission: Admission | null;
}

export type PodtextYoga = YogaServerInstance<{ slot: ContextSlot }, GraphQLContext> & {
  /** Reads a document's calls for the door; shared with graphql-ws. */
  readCalls: CallReader;
};

/**
 * The GraphQL side of the one door, for HTTP and SSE: each operation of a
 * request (a batch has several) is admitted before it is parsed for
 * execution, so documents that do not parse or validate are counted too; the
 * rate-limit headers of the last admission go on the response.
 */
function doorPlugin(services: Services, readCalls: CallReader): Plugin<Record<string, unknown>, { slot: ContextSlot }> {
  return {
    async onParams({ params, context, setResult }) {
      const slot = context.slot;
      const { admission, refusal } = await admitOperation(services.door, readCalls, params, { credentials: slot.credentials });
      slot.admission = admission;
      if (refusal) setResult({ errors: [toGraphQLError(refusal)] });
    },
    async onResponse({ response, serverContext }) {
      const slot = (serverContext as { slot?: ContextSlot } | undefined)?.slot;
      // Answered before any operation was read (a request yoga could not read): still one call.
      if (slot && !slot.admission) slot.admission = await services.door.admit({ operation: 'unknownCall' }, slot.credentials);
      const headers = slot?.admission?.headers ?? KEYLESS_HEADERS;
      stampResponse(response, headers);
    },
  };
}

/** Subscriptions end when the key they were opened with is retired, over SSE as over graphql-ws. */
function retirementPlugin(retirement: KeyRetirement): Plugin<GraphQLContext> {
  return {
    onSubscribe({ args }) {
      const watch = retirement.watch(args.contextValue.actor);
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) setResult(watch.guard(result as AsyncIterable<never>));
          else watch.release();
        },
      };
    },
  };
}

/**
 * A subscription asked for with an `Accept` that cannot stream (plain JSON):
 * yoga would answer an empty 406 and leave the started subscription to hang.
 * It is ended here, and the 406 says, in the error body, how to subscribe.
 */
function notAcceptablePlugin(): Plugin {
  const cannotStream = (result: AsyncIterable<unknown>, message: string, status?: number) => {
    void result[Symbol.asyncIterator]().return?.();
    return { errors: [new GraphQLError(message, { extensions: { code: 'invalid_request', ...(status ? { http: { status } } : {}) } })] };
  };
  return {
    onResultProcess({ result, resultProcessor, setResult, setResultProcessor }) {
      // A batch answers once, as one JSON array: a subscription in it has nowhere to stream
      // to, and yoga would write it as `{}` and leave it running for good.
      if (Array.isArray(result)) {
        if (result.some((r) => isAsyncIterable(r))) {
          const message = 'a subscription cannot be part of a batch: send it alone with Accept: text/event-stream, or subscribe over graphql-ws at the same path';
          setResult(result.map((r) => (isAsyncIterable(r) ? cannotStream(r, message) : r)) as never);
        }
        return;
      }
      if (resultProcessor || !isAsyncIterable(result)) return;
      setResult(cannotStream(result, 'a subscription streams its events: send Accept: text/event-stream, or subscribe over graphql-ws at the same path', 406));
      setResultProcessor(processRegularResult, 'application/json');
    },
  };
}

const isRestCode = (code: unknown) => typeof code === 'string' && Object.hasOwn(errorStatus, code);

type HttpExtension = { status?: number; headers?: Record<string, string> };

/** yoga's own refusals, by the status it gives them, as REST's codes. */
function codeForStatus(status: number | undefined): ErrorCode {
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  return 'invalid_request';
}

/**
 * Every error a client sees carries `extensions.code`, one of REST's codes,
 * with that code's status: yoga's own (a malformed or over-long document, a
 * mutation sent by GET) become `invalid_request` or `method_not_allowed`
 * (405), as in REST, keeping yoga's headers (`Allow`) and its GraphQL over
 * HTTP rule for documents that do not parse (see validationCodePlugin).
 */
function withCode(error: GraphQLError): GraphQLError {
  if (isRestCode(error.extensions?.code)) return error;
  // yoga puts a body's JSON parse failure in `originalError`: the message says what went wrong, the
  // parser's internals stay here, and a body that cannot be read is a 400 whatever the Accept.
  const { originalError, http, ...extensions } = (error.extensions ?? {}) as { originalError?: unknown; http?: HttpExtension & { spec?: boolean } };
  const code = codeForStatus(http?.status);
  const { spec, ...rest } = http ?? {};
  const httpExtension = { ...rest, ...(spec && !originalError ? { spec } : {}), status: errorStatus[code] };
  return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { ...extensions, code, http: httpExtension } });
}

/**
 * A document the schema refuses is `invalid_request`, not yoga's
 * GRAPHQL_VALIDATION_FAILED (validation errors are not masked). Its status
 * follows GraphQL over HTTP, as for a document that does not parse: 400 under
 * `Accept: application/graphql-response+json`, 200 under `application/json`.
 */
function validationCodePlugin(): Plugin {
  return {
    onValidate: () => ({ valid, result }) => {
      if (valid) return;
      for (const error of result) {
        const extensions = error.extensions as Record<string, unknown>;
        if (!isRestCode(extensions.code)) extensions.code = 'invalid_request';
      }
    },
  };
}

/**
 * GraphQL over the same core services as REST. Domain errors keep their code
 * in `extensions.code`; anything else is logged once and masked.
 */
export function createGraphQL(services: Services, options: { production: boolean; siteUrl: string; plugins?: Plugin[] }): PodtextYoga {
  const schema = buildSchema();
  const readCalls = createCallReader(schema);
  const siteOrigin = new URL(options.siteUrl).origin;
  const yoga = createYoga<{ slot: ContextSlot }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    batching: { limit: 10 },
    landingPage: !options.production,
    graphiql: !options.production && { title: 'GraphiQL · Podtext' },
    // GraphiQL's assets bundled in the package: the explorer loads nothing from a CDN.
    renderGraphiQL,
    logging: false,
    // Browsers on the site's own origin may send its cookie; any other origin
    // may call with a key in a header, never with credentials.
    cors: (request) => {
      const origin = request.headers.get('origin');
      if (origin === siteOrigin) return { origin: siteOrigin, credentials: true };
      return { origin: '*', credentials: false, allowedHeaders: ['authorization', 'x-api-key', 'content-type'], exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After'] };
    },
    maskedErrors: {
      maskError(error) {
        const original = (error as GraphQLError).originalError ?? error;
        if (original instanceof DomainError) return toGraphQLError(original);
        // A variable that does not fit its type, or a required one not sent (coerced before anything
        // runs): the client's error, naming the variable. Read before the scalar's own error inside
        // it, whose message does not (for a subscription yoga has given that one a code by then).
        // Its status follows GraphQL over HTTP, as for a document that does not validate: 400
        // under application/graphql-response+json, 200 under legacy application/json (`spec`).
        if (error instanceof GraphQLError && !error.path && /^Variable "\$\w+"/.test(error.message)) {
          return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'invalid_request', http: { status: errorStatus.invalid_request, spec: true } } });
        }
        if (original instanceof GraphQLError && original.extensions?.code) return withCode(original);
        if (error instanceof GraphQLError && !(error as GraphQLError).originalError) return withCode(error);
        if (isClientAbort(original)) services.log.debug({ err: original }, 'client aborted the request');
        else if (isDatabaseUnavailable(original)) services.log.warn({ err: original }, `database ${databaseTrouble(original)}`);
        else services.log.error({ err: original }, 'graphql resolver failed');
        return toGraphQLError(original);
      },
    },
    context: (initial) => {
      const { slot, wsContext } = initial as { slot?: ContextSlot; wsContext?: GraphQLContext };
      if (wsContext) return wsContext;
      return { services, actor: slot?.admission?.actor ?? null, rateLimit: slot?.admission?.headers ?? KEYLESS_HEADERS };
    },
    // Operations' metrics and the shutdown that ends subscriptions (src/infra/metrics)
    // come first, so that operations the door refuses are counted too.
    plugins: [...(options.plugins ?? []), doorPlugin(services, readCalls) as Plugin, ...queryLimits(options.production), retirementPlugin(services.keyRetirement) as Plugin, validationCodePlugin(), notAcceptablePlugin(), ...httpRequestPlugins()],
  });
  return Object.assign(yoga, { readCalls });
}
