import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { Credentials } from '../core/door/credentials.js';

/**
 * The key headers of a request, each as the list of lines received. Read from
 * Node's own parsed headers when served by @hono/node-server (`headersDistinct`
 * keeps a repeated `Authorization`, which Node's plain `headers` drops), so a
 * warm call never builds a Fetch `Headers` object.
 */
export function requestCredentials(c: Context): Credentials {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) {
    const raw = incoming.headers;
    if (raw.authorization === undefined && raw['x-api-key'] === undefined) return {};
    const distinct = incoming.headersDistinct;
    return { authorization: distinct.authorization, apiKey: distinct['x-api-key'] };
  }
  const authorization = c.req.header('authorization');
  const apiKey = c.req.header('x-api-key');
  return { authorization: authorization === undefined ? undefined : [authorization], apiKey: apiKey === undefined ? undefined : [apiKey] };
}

/** True when the request's body was sent but not (yet) read to its end. */
export function bodyUnread(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded) return false;
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
