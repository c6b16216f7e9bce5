import type { Server } from 'node:http';
import { type ExecutionResult, GraphQLError, getOperationAST } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Actor } from '../core/accounts/actor.js';
import type { Credentials } from '../core/door/credentials.js';
import { DomainError, errorStatus } from '../core/errors.js';
import type { Services } from '../core/services.js';
import { admitOperation, toGraphQLError } from './admission.js';
import type { GraphQLContext } from './context.js';
import type { PodtextYoga } from './yoga.js';
import { MAX_BODY_BYTES } from '../http-app.js';
import { stampErrors, stampPayload } from '../wire/rate-limit-stamps.js';

/** Close code for a refused or retired key. */
const FORBIDDEN = 4403;
/** Close code for a handshake the server could not complete: try again. */
const INTERNAL_ERROR = 4500;

function credentialsFromParams(params: Record<string, unknown> | undefined): Credentials {
  const p = params ?? {};
  const list = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string');
  return { authorization: list(p.authorization, p.Authorization), apiKey: list(p.apiKey, p['X-Api-Key'], p['x-api-key']) };
}

type Extra = Record<string, unknown> & {
  /** Null on a connection made without a key: only operations that need none run. */
  actor: Actor | null;
  release(): void;
  /** Rate-limit figures of each subscription, by its id. */
  rateLimits: Map<string, GraphQLContext['rateLimit']>;
  /** Queries and mutations running now, by id: a retired key's socket closes once they have answered. */
  running: Set<string>;
  /** Set when the key was retired: nothing more runs, and the socket closes. */
  retired: boolean;
};

/** A close frame's reason holds at most 123 bytes. */
function closeReason(message: string): string {
  if (Buffer.byteLength(message) <= 123) return message;
  let reason = message;
  while (Buffer.byteLength(`${reason}…`) > 123) reason = reason.slice(0, -1);
  return `${reason}…`;
}

/** The extra graphql-ws's `ws` adapter gives every connection: our fields and its socket. */
type SocketExtra = Extra & { socket: { close(code: number, reason: string): void; readonly readyState: number; readonly OPEN: number } };

/** Longest a retired key's socket stays open for the answers of operations already running. */
const RETIRED_GRACE_MS = 2000;

/**
 * graphql-ws on `/graphql`, sharing yoga's plugins through `getEnveloped`. The
 * key comes in `connectionParams` (`authorization: "Bearer …"` or `apiKey`)
 * and is checked once, at the handshake; each operation is then admitted by
 * the door for that actor, counted as over HTTP (`admitOperation`). Without a key, operations that need none run
 * and the others are refused with an `error` each. A bad key closes with 4403, and so does retiring
 * the key; a handshake the server cannot check (database down) closes with 4500. A subscribe message that cannot run is answered with an `error`
 * for its id; the socket and its other subscriptions go on.
 */
/**
 * A document refused before it runs (it does not parse, or breaks a rule or a
 * limit) is `invalid_request`, as over HTTP; HTTP's own extensions stay there.
 */
function requestErrors(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((e) => {
    const { http: _http, ...extensions } = (e.extensions ?? {}) as Record<string, unknown>;
    const code = typeof extensions.code === 'string' && Object.hasOwn(errorStatus, extensions.code) ? extensions.code : 'invalid_request';
    return new GraphQLError(e.message, { nodes: e.nodes, extensions: { ...extensions, code } });
  });
}

/**
 * `extensions.http` tells yoga the status and headers of an answer over HTTP;
 * a socket has neither (the rate-limit figures travel in `extensions.rateLimit`).
 */
function withoutHttp(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((e) => {
    if (!e.extensions || !('http' in e.extensions)) return e;
    const { http: _http, ...extensions } = e.extensions;
    return new GraphQLError(e.message, { nodes: e.nodes, path: e.path, extensions });
  });
}

/** An operation has answered; a retired key's socket closes after the last one (its `complete` sent first). */
function settle(extra: SocketExtra, id: string): void {
  if (!extra.running?.delete(id) || !extra.retired || extra.running.size > 0) return;
  setImmediate(() => extra.socket.close(FORBIDDEN, 'API key retired'));
}

export function attachGraphQLWebSocket(server: Server, yoga: PodtextYoga, services: Services): () => Promise<void> {
  // A message is a document and its variables, held by the same limit as a POST body; a larger one closes the socket (1009).
  const wss = new WebSocketServer({ server, path: '/graphql', maxPayload: MAX_BODY_BYTES });
  // ws has already closed such a socket with 1009; graphql-ws would print its error as a fault of ours.
  wss.on('connection', (socket) => {
    const emit = socket.emit.bind(socket);
    socket.emit = ((event: string, ...args: unknown[]) =>
      event === 'error' && (args[0] as { code?: string } | undefined)?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? true : emit(event, ...args)) as typeof socket.emit;
  });

  useServer<Record<string, unknown>, Extra>(
    {
      connectionInitWaitTimeout: 3000,
      onConnect: async (ctx) => {
        const credentials = credentialsFromParams(ctx.connectionParams);
        const keyless = () => {
          Object.assign(ctx.extra, { actor: null, release: () => undefined, rateLimits: new Map(), running: new Set<string>(), retired: false });
          return true;
        };
        // No key at all: keyless operations (the public sample, registration) run as over HTTP; the rest are refused one by one.
        if (credentials.authorization!.length === 0 && credentials.apiKey!.length === 0) return keyless();
        try {
          const actor = await services.door.authenticate(credentials);
          // Parameters that name no key (`authorization: ""`, as a client without one sends it): keyless, as an empty header is over HTTP.
          if (!actor) return keyless();
          // Closed while its key was checked: onClose has run, and would not release a watch taken now.
          if ((ctx.extra as SocketExtra).socket.readyState !== (ctx.extra as SocketExtra).socket.OPEN) return false;
          const watch = services.keyRetirement.watch(actor);
          const extra = Object.assign(ctx.extra, { actor, release: watch.release, rateLimits: new Map(), running: new Set<string>(), retired: false });
          watch.signal.addEventListener(
            'abort',
            () => {
              extra.retired = true;
              // A rotation asked for on this socket answers with the new key before the socket closes.
              if (extra.running.size === 0) extra.socket.close(FORBIDDEN, 'API key retired');
              else setTimeout(() => extra.socket.close(FORBIDDEN, 'API key retired'), RETIRED_GRACE_MS).unref();
            },
            { once: true },
          );
          return true;
        } catch (err) {
          if (err instanceof DomainError) {
            // Why, as REST's 401 or 400 says it (a key not written `Bearer …`, two different keys), not only graphql-ws's `Forbidden`.
            (ctx.extra as SocketExtra).socket.close(FORBIDDEN, closeReason(err.message));
            return false;
          }
          // The key could not be checked (the database unreachable): 4500, which a client
          // retries, instead of 4403 for a key that may be good. The first close code stands.
          services.log.error({ err }, 'graphql-ws handshake: the key could not be checked');
          (ctx.extra as SocketExtra).socket.close(INTERNAL_ERROR, 'Internal server error');
          return false;
        }
      },
      onClose: (ctx) => ctx.extra.release?.(),
      execute: (args) => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, id, payload) => {
        // Set by onConnect, which graphql-ws runs before any subscribe.
        const { actor, rateLimits, running } = ctx.extra as Required<Extra>;
        if (ctx.extra.retired) return [toGraphQLError(new DomainError('unauthorized', 'This API key was retired; connect again with the new one.'))];
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...ctx, params: payload });
        // Counted from the text, as over HTTP, before anything is parsed for execution.
        const { admission, refusal } = await admitOperation(services.door, yoga.readCalls, payload, actor ? { actor } : { credentials: {} });
        rateLimits.set(id, admission.headers);
        if (refusal) return [toGraphQLError(refusal)];
        let document;
        try {
          document = parse(payload.query);
        } catch (err) {
          return requestErrors([err instanceof GraphQLError ? err : toGraphQLError(err)]);
        }
        // The admission's actor carries the plan as it is now; a keyless connection's stays null.
        const wsContext: GraphQLContext = { services, actor: admission.actor ?? actor, rateLimit: admission.headers };
        const args = {
          schema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue: await contextFactory({ wsContext } as never),
          rootValue: { execute, subscribe },
        };
        let errors: readonly GraphQLError[];
        try {
          errors = validate(args.schema, args.document);
        } catch (err) {
          return requestErrors([err instanceof GraphQLError ? err : toGraphQLError(err)]);
        }
        if (errors.length) return requestErrors(errors);
        if (getOperationAST(document, payload.operationName)?.operation !== 'subscription') running.add(id);
        return args;
      },
      onNext: (ctx, id, _payload, _args, result) => {
        const r = result as ExecutionResult;
        return stampPayload(r.errors ? { ...r, errors: withoutHttp(r.errors) } : r, ctx.extra.rateLimits?.get(id));
      },
      onError: (ctx, id, _payload, errors) => {
        const rateLimit = ctx.extra.rateLimits?.get(id);
        // An operation refused with `error` never completes: its figures go now.
        ctx.extra.rateLimits?.delete(id);
        settle(ctx.extra as SocketExtra, id);
        return stampErrors(withoutHttp(errors), rateLimit);
      },
      onComplete: (ctx, id) => {
        ctx.extra.rateLimits?.delete(id);
        settle(ctx.extra as SocketExtra, id);
      },
    },
    wss,
  );

  return async () => {
    for (const client of wss.clients) client.close(1001, 'Server shutting down');
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
