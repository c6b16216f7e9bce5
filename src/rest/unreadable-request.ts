import { RequestError } from '@hono/node-server';
import { KEYLESS_HEADERS } from '../core/door/door.js';
import { isClientAbort } from '../infra/client-abort.js';
import { ANSWER_HEADERS } from './cross-origin.js';

/**
 * Headers of an answer to a request Podtext could not read (a head that did not
 * parse, a path Node parsed but no URL can hold). No key could be read from it:
 * like every call not counted, it reports the Free allowance untouched. Whether
 * a page sent it cannot be told either; the cross-origin headers are the same
 * for every origin, so a page can read why.
 */
export const UNREADABLE_HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  ...KEYLESS_HEADERS,
  ...Object.fromEntries(Object.entries(ANSWER_HEADERS).map(([name, value]) => [name.toLowerCase(), value])),
};

/** The error body for such a request: `why` in plain words, lower case. Default: malformed HTTP. */
export function unreadableBody(code: 'invalid_request' | 'header_too_large', why: string): string {
  return JSON.stringify({ error: { code, message: code === 'header_too_large' ? 'headers: larger than 16 KB' : `request: ${why}` } });
}

/**
 * The answer to a request Node parsed but whose target no URL can hold (a
 * backslash in the path, `*`, a missing Host): the error body every other
 * refusal has, where Node's adapter would answer an empty 400.
 * Any other error reaching here escaped the app's own handler: a bug, answered 500.
 */
export function unreadableRequest(err: unknown, onBug: (err: unknown) => void): Response {
  // The client went away while its body was read: routine, and no one is left to answer.
  if (isClientAbort(err)) return new Response(unreadableBody('invalid_request', 'aborted by the client'), { status: 400, headers: UNREADABLE_HEADERS });
  if (err instanceof RequestError) {
    const why = err.message.charAt(0).toLowerCase() + err.message.slice(1);
    return new Response(unreadableBody('invalid_request', why), { status: 400, headers: UNREADABLE_HEADERS });
  }
  onBug(err);
  const body = JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side; it has been logged.' } });
  return new Response(body, { status: 500, headers: UNREADABLE_HEADERS });
}
