import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { Credentials } from '../core/door/credentials.js';

/**
 * The key headers of a request, each as the list of lines received (a
 * repeated `Authorization` is kept, to be refused). Read from Node's raw
 * header lines when served by @hono/node-server, so a warm call never builds
 * a Fetch `Headers` object.
 */
export function requestCredentials(c: Context): Credentials {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) {
    // Node's raw header lines, scanned once: its `headers`/`headersDistinct`
    // objects would be built for every header just to read these two.
    const raw = incoming.rawHeaders;
    let authorization: string[] | undefined;
    let apiKey: string[] | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 13 && name.toLowerCase() === 'authorization') (authorization ??= []).push(raw[i + 1]!);
      else if (name.length === 9 && name.toLowerCase() === 'x-api-key') (apiKey ??= []).push(raw[i + 1]!);
    }
    return authorization || apiKey ? { authorization, apiKey } : {};
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
