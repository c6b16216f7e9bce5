import type { Context } from 'hono';
import { DomainError } from '../core/errors.js';

/**
 * The fields of a posted form. A body its content type does not describe (a
 * multipart upload cut short, a boundary that is not in it) is the sender's
 * mistake: a 400 page, never the 500 page and a stack in the log.
 */
export async function readForm(c: Context): Promise<Record<string, string | File>> {
  try {
    return await c.req.parseBody();
  } catch (err) {
    // undici's FormData parser says only "Failed to parse body as FormData." with a TypeError.
    if (err instanceof TypeError) throw new DomainError('invalid_request', 'What was sent could not be read as a form. Go back and try again.');
    throw err;
  }
}
