import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { OutboundError, toOutboundError } from './outbound-error.js';
import type { OpenResponse } from './send-once.js';

/** The body as the server meant it: gzip, deflate (zlib) and br undone. */
function decoded(open: OpenResponse): Readable {
  const res = open.response;
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  let decoder;
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') decoder = createUnzip();
  else if (encoding === 'br') decoder = createBrotliDecompress();
  else return res;
  return pipeline(res, decoder, () => {});
}

/**
 * Reads the whole body, counting decoded bytes so a small gzip bomb is cut
 * as early as an endless stream. Past `maxBytes`: with `truncate`, the first
 * `maxBytes` bytes and `truncated: true`; otherwise `too_large`.
 */
export async function readBody(
  open: OpenResponse,
  maxBytes: number,
  truncate: boolean,
  url: string,
): Promise<{ body: Buffer; truncated: boolean }> {
  const res = open.response;
  const declared = Number(res.headers['content-length']);
  if (!truncate && !res.headers['content-encoding'] && Number.isFinite(declared) && declared > maxBytes) {
    const err = new OutboundError('too_large', `body of ${declared} bytes is over the ${maxBytes} byte cap`, { url });
    open.fail(err);
    throw err;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoded(open)) {
      const piece = chunk as Buffer;
      if (size + piece.length > maxBytes) {
        if (truncate) {
          chunks.push(piece.subarray(0, maxBytes - size));
          size = maxBytes;
          open.response.destroy();
          return { body: Buffer.concat(chunks, size), truncated: true };
        }
        open.fail(new OutboundError('too_large', `body is over the ${maxBytes} byte cap`, { url }));
        break;
      }
      chunks.push(piece);
      size += piece.length;
    }
  } catch (err) {
    throw open.failure() ?? toOutboundError(err, url);
  }
  const failure = open.failure();
  if (failure) throw failure;
  return { body: Buffer.concat(chunks, size), truncated: false };
}
