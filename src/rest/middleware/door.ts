import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Admission } from '../../core/door/door.js';
import { DomainError } from '../../core/errors.js';
import { type OperationName, isOperationName } from '../../core/door/operations.js';
import type { RestEnv } from '../env.js';
import { allowCrossOrigin, answerPreflight } from '../cross-origin.js';
import { requestCredentials } from '../request-credentials.js';
import { nodeResponse, stampRateLimit } from '../../wire/rate-limit-stamps.js';

interface RouteEntry {
  method: string;
  /** The first path segment after the prefix, or `*` when it is a parameter. */
  head: string;
  pattern: RegExp;
  /** The path parameter holding a transcript id, for the public-sample rule. */
  transcriptParam: number | null;
  operation: OperationName;
}

/** What a method and path under the API's prefix name. */
export type RouteMatch =
  | { kind: 'operation'; operation: OperationName; transcriptId?: string }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'unknown' };

/**
 * Every documented route of `api`, matched by method and path. Literal
 * segments win over parameters, as in the router (`/shows/lookup` before
 * `/shows/{feed_id}`). A route whose `operationId` is not in the catalogue
 * fails here, at start.
 */
export function routeMatcher(api: OpenAPIHono<RestEnv>, prefix: string) {
  const entries: RouteEntry[] = [];
  for (const d of api.openAPIRegistry.definitions) {
    if (d.type !== 'route') continue;
    const { method, path, operationId } = d.route;
    if (!operationId || !isOperationName(operationId)) throw new Error(`Route ${method.toUpperCase()} ${path} names no operation (operationId ${operationId})`);
    const names: string[] = [];
    const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'));
    const param = names.indexOf('transcript_id');
    const first = path.split('/')[1] ?? '';
    entries.push({ method: method.toUpperCase(), head: first.startsWith('{') ? '*' : first, pattern: new RegExp(`^${prefix}${source}/?$`), transcriptParam: param < 0 ? null : param, operation: operationId });
  }
  const paramCount = (e: RouteEntry) => (e.pattern.source.match(/\(\[\^\/\]\+\)/g) ?? []).length;
  entries.sort((a, b) => paramCount(a) - paramCount(b));
  // Routes grouped by their first segment, so a call tests a handful of patterns, not all of them.
  const byHead = new Map<string, RouteEntry[]>();
  const anyHead = entries.filter((e) => e.head === '*');
  for (const e of entries) if (e.head !== '*') byHead.set(e.head, [...(byHead.get(e.head) ?? []), e]);
  for (const [head, list] of byHead) byHead.set(head, [...list, ...anyHead].sort((a, b) => paramCount(a) - paramCount(b)));

  return (method: string, path: string): RouteMatch => {
    const m = method === 'HEAD' ? 'GET' : method;
    const allow: string[] = [];
    const rest = path.startsWith(prefix) ? path.slice(prefix.length + 1) : '';
    const slash = rest.indexOf('/');
    const candidates = byHead.get(slash < 0 ? rest : rest.slice(0, slash)) ?? anyHead;
    for (const e of candidates) {
      const hit = e.pattern.exec(path);
      if (!hit) continue;
      if (e.method === m) {
        return e.transcriptParam === null ? { kind: 'operation', operation: e.operation } : { kind: 'operation', operation: e.operation, transcriptId: hit[e.transcriptParam + 1] };
      }
      // `/shows/lookup` also has the shape of `/shows/{feed_id}`: a method is named once.
      if (!allow.includes(e.method)) allow.push(e.method);
    }
    return allow.length ? { kind: 'method_not_allowed', allow } : { kind: 'unknown' };
  };
}

/**
 * The REST side of the one door, ahead of every other check under the API
 * prefix: the call is matched to its operation, admitted by the core door,
 * and the rate-limit headers are set before anything can answer, so every
 * answer (success, 400, 401, 402, 404, 405, 413, 429) carries them and every
 * call made with a key is counted.
 */
export function restDoor(match: ReturnType<typeof routeMatcher>): MiddlewareHandler<RestEnv> {
  // Not async: a warm call's admission comes back at once and goes straight on.
  return (c, next) => {
    const found = match(c.req.method, c.req.path);
    // First, so that a browser can read every answer, the door's refusals included.
    allowCrossOrigin(c);
    const operation = found.kind === 'operation' ? found.operation : 'unknownCall';
    c.set('operation', operation);
    const input = found.kind === 'operation' && found.transcriptId !== undefined ? { transcriptId: found.transcriptId } : undefined;
    const admitted = c.get('services').door.admit({ operation, input }, requestCredentials(c));
    return admitted instanceof Promise ? admitted.then((a) => enter(c, next, found, a)) : enter(c, next, found, admitted);
  };
}

/** Past the door: stamps the admission on the answer, then refuses or goes on to the route. */
async function enter(c: Context<RestEnv>, next: Next, found: RouteMatch, admission: Admission): Promise<Response | undefined> {
  c.set('admission', admission);
  if (admission.actor) c.set('actor', admission.actor);
  stampRateLimit(c, admission.headers);
  if (admission.error) throw admission.error;
  if (found.kind === 'method_not_allowed') {
    // HEAD goes wherever GET does; OPTIONS is answered here, for every route.
    const allow = [...found.allow, ...(found.allow.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    c.header('Allow', allow);
    if (c.req.method === 'OPTIONS') {
      answerPreflight(c, allow);
      return c.body(null, 204);
    }
    throw new DomainError('method_not_allowed', `${c.req.method} is not allowed here; use ${found.allow.join(' or ')}.`);
  }
  if (found.kind === 'unknown') throw new DomainError('not_found', `No route for ${c.req.method} ${c.req.path}`);
  await next();
  // Without Node (`app.request`), an answer returned as a ready Response skipped the context's headers.
  if (!nodeResponse(c)) stampRateLimit(c, admission.headers);
  return undefined;
}
