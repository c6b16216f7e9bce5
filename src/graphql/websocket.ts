import type { Server } from 'node:http';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Actor } from '../core/accounts/actor.js';
import { lookupHash } from '../core/accounts/api-key.js';
import { keyFromHeaders } from '../core/accounts/credentials.js';
import type { Services } from '../core/services.js';
import type { PodtextYoga } from './yoga.js';

/** Close code for a refused or retired key. */
const FORBIDDEN = 4403;

function keyFromParams(params: Record<string, unknown> | undefined): string | null {
  const p = params ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return keyFromHeaders(str(p.authorization) ?? str(p.Authorization), str(p.apiKey) ?? str(p['X-Api-Key']) ?? str(p['x-api-key']));
}

/**
 * graphql-ws on `/graphql`, sharing yoga's plugins and context through
 * `getEnveloped`. The key comes in `connectionParams` (`authorization:
 * "Bearer …"` or `apiKey`); a bad key closes with 4403, and rotating the key
 * closes every socket opened with it.
 */
export function attachGraphQLWebSocket(server: Server, yoga: PodtextYoga, services: Services): () => Promise<void> {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const open = new Map<string, Set<{ close(code: number, reason: string): void }>>();

  const unsubscribe = services.bus.subscribe((e) => {
    if (e.type !== 'key.revoked') return;
    for (const socket of open.get(e.lookupHash) ?? []) socket.close(FORBIDDEN, 'API key retired');
    open.delete(e.lookupHash);
  });

  useServer<Record<string, unknown>, { actor: Actor; keyHash: string }>(
    {
      connectionInitWaitTimeout: 3000,
      onConnect: async (ctx) => {
        try {
          const key = keyFromParams(ctx.connectionParams);
          if (!key) return false;
          ctx.extra.actor = await services.keys.authenticate(key);
          ctx.extra.keyHash = lookupHash(key);
          const set = open.get(ctx.extra.keyHash) ?? new Set();
          set.add(ctx.extra.socket);
          open.set(ctx.extra.keyHash, set);
          return true;
        } catch {
          return false;
        }
      },
      onClose: (ctx) => {
        if (ctx.extra.keyHash) open.get(ctx.extra.keyHash)?.delete(ctx.extra.socket);
      },
      execute: (args) => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        const key = keyFromParams(ctx.connectionParams);
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          wsHeaders: { authorization: key ? `Bearer ${key}` : null, xApiKey: null },
          params: payload,
        });
        const args = {
          schema,
          operationName: payload.operationName,
          document: parse(payload.query),
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wss,
  );

  return async () => {
    unsubscribe();
    for (const client of wss.clients) client.close(1001, 'Server shutting down');
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
