import http from 'node:http';
import https from 'node:https';

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Whole-request limit in milliseconds, upload and answer included. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PostResponse {
  status: number;
  body: string;
}

/**
 * How an engine sends one HTTP POST. The composition root may pass the
 * guarded outbound client here; the default is {@link httpPost}, since the
 * speech server is one the operator configured (often on a private network).
 */
export type PostFn = (request: PostRequest) => Promise<PostResponse>;

/** The request took longer than its `timeoutMs`. */
export class PostTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'PostTimeoutError';
  }
}

/** Most bytes of answer read: a verbose_json for an hour of speech is ~2 MB. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/**
 * One POST with node:http(s): no redirects followed (a 3xx is returned as
 * is), bounded in time and in the size of the answer read.
 */
export function httpPost(request: PostRequest): Promise<PostResponse> {
  const url = new URL(request.url);
  const transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
  if (!transport) return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = transport.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(request.body.length) },
      signal: request.signal,
    });
    const timer = setTimeout(() => req.destroy(new PostTimeoutError(request.timeoutMs)), request.timeoutMs);
    req.on('error', (err) => settle(() => reject(err)));
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (b: Buffer) => {
        size += b.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy(new Error(`answer larger than ${MAX_RESPONSE_BYTES} bytes`));
          return;
        }
        parts.push(b);
      });
      res.on('end', () => {
        if (size > MAX_RESPONSE_BYTES) return;
        settle(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      });
      res.on('error', (err) => settle(() => reject(err)));
    });
    req.end(request.body);
  });
}
