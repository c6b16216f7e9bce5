import { open as openFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDeadline } from './deadline.js';
import { openFollowingRedirects } from './follow-redirects.js';
import { OutboundError, toOutboundError } from './outbound-error.js';
import type { ClientContext } from './send-once.js';
import { parseTarget, redact } from './target-url.js';

export interface DownloadOptions {
  /** Refuse anything larger, in bytes; checked against Content-Length and while streaming. Required. */
  maxBytes: number;
  headers?: Record<string, string>;
  /** Total time for the download, retries included, in ms. Default: 600000 (10 min). */
  timeoutMs?: number;
  /** Longest silence on the socket, in ms. Default: 15000. */
  idleTimeoutMs?: number;
  /** Redirects to follow per attempt, each checked again. Default: 5. */
  maxRedirects?: number;
  /** Refuse http: on the first URL and on every redirect. Default: false. */
  httpsOnly?: boolean;
  /** Further attempts after a dropped connection, a stall or a 5xx. Default: 3. */
  maxRetries?: number;
  /** Pause before retry n, times n, in ms. Default: 1000. */
  retryDelayMs?: number;
  signal?: AbortSignal;
}

export interface DownloadResult {
  /** Bytes in the file. */
  bytes: number;
  contentType: string | null;
  /** The final URL after redirects, without user info. */
  url: string;
  /** The file's `ETag` and `Last-Modified` as served, for later conditional requests. */
  etag: string | null;
  lastModified: string | null;
}

interface ResumeState {
  url: URL;
  written: number;
  /** Full size, when the server said. */
  total: number | null;
  /** Strong ETag or Last-Modified, sent as If-Range so a changed file restarts. */
  validator: string | null;
  ranges: boolean;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
}

function rangeStart(contentRange: string | undefined): number | null {
  const match = /^bytes\s+(\d+)-\d+\/(?:\d+|\*)$/i.exec(contentRange?.trim() ?? '');
  return match ? Number(match[1]) : null;
}

function retryable(err: OutboundError, deadline: AbortSignal): boolean {
  if (deadline.aborted) return false;
  if (err.code === 'network' || err.code === 'timeout') return true;
  return err.code === 'http_status' && (err.details.status ?? 0) >= 500;
}

async function attempt(
  ctx: ClientContext,
  state: ResumeState,
  filePath: string,
  opts: DownloadOptions,
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = { ...opts.headers, 'accept-encoding': 'identity' };
  const resuming = state.written > 0 && state.ranges;
  if (resuming) {
    headers.range = `bytes=${state.written}-`;
    if (state.validator) headers['if-range'] = state.validator;
  }
  const { open, url } = await openFollowingRedirects(ctx, state.url, {
    method: 'GET',
    headers,
    maxRedirects: opts.maxRedirects ?? 5,
    httpsOnly: opts.httpsOnly ?? false,
    idleTimeoutMs: opts.idleTimeoutMs ?? 15_000,
  }, signal);
  state.url = url;
  const where = redact(url);
  const res = open.response;
  const status = res.statusCode ?? 0;
  const start = rangeStart(res.headers['content-range']);
  if (resuming && status === 416 && state.total === state.written) {
    res.destroy();
    return;
  }
  const append = resuming && status === 206 && start === state.written;
  if (!append && (status < 200 || status >= 300 || (status === 206 && start !== 0))) {
    const err = new OutboundError('http_status', `server answered ${status}`, { url: where, status });
    open.fail(err);
    throw err;
  }
  if (!append) {
    state.written = 0;
    state.contentType = res.headers['content-type'] ?? null;
    const etag = res.headers.etag;
    state.etag = etag ?? null;
    state.lastModified = res.headers['last-modified'] ?? null;
    state.validator = etag && !etag.startsWith('W/') ? etag : state.lastModified;
  }
  state.ranges = status === 206 || /\bbytes\b/i.test(String(res.headers['accept-ranges'] ?? ''));
  const length = Number(res.headers['content-length'] ?? NaN);
  state.total = Number.isFinite(length) ? state.written + length : null;
  if (state.total !== null && state.total > opts.maxBytes) {
    const err = new OutboundError('too_large', `file of ${state.total} bytes is over the ${opts.maxBytes} byte cap`, { url: where });
    open.fail(err);
    throw err;
  }

  const file = await openFile(filePath, append ? 'a' : 'w');
  try {
    for await (const chunk of res) {
      const piece = chunk as Buffer;
      if (state.written + piece.length > opts.maxBytes) {
        open.fail(new OutboundError('too_large', `file is over the ${opts.maxBytes} byte cap`, { url: where }));
        break;
      }
      // Written before counted, so `written` is what the file really holds when we resume.
      await file.write(piece);
      state.written += piece.length;
    }
  } catch (err) {
    throw open.failure() ?? toOutboundError(err, where);
  } finally {
    await file.close();
  }
  const failure = open.failure();
  if (failure) throw failure;
  if (state.total !== null && state.written < state.total) {
    throw new OutboundError('network', `connection closed after ${state.written} of ${state.total} bytes`, { url: where });
  }
}

/**
 * Streams `url` into `filePath` (created or overwritten). After a dropped
 * connection or a stall it retries; when the server takes ranges
 * (Accept-Ranges: bytes, or a 206) it asks only for the missing bytes,
 * otherwise it starts over. On failure the partial file is removed.
 */
export async function downloadToFile(
  ctx: ClientContext,
  url: string | URL,
  filePath: string,
  opts: DownloadOptions,
): Promise<DownloadResult> {
  const start = parseTarget(url, opts.httpsOnly ?? false);
  const deadline = createDeadline(opts.timeoutMs ?? 600_000, redact(start), opts.signal);
  const state: ResumeState = { url: start, written: 0, total: null, validator: null, ranges: false, contentType: null, etag: null, lastModified: null };
  const maxRetries = opts.maxRetries ?? 3;
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        await attempt(ctx, state, filePath, opts, deadline.signal);
        return { bytes: state.written, contentType: state.contentType, url: redact(state.url), etag: state.etag, lastModified: state.lastModified };
      } catch (err) {
        const failure = toOutboundError(err, redact(state.url));
        if (tries >= maxRetries || !retryable(failure, deadline.signal)) throw failure;
        await sleep((opts.retryDelayMs ?? 1000) * (tries + 1), undefined, { signal: deadline.signal }).catch(() => {
          throw deadline.signal.reason;
        });
      }
    }
  } catch (err) {
    await rm(filePath, { force: true });
    throw err;
  } finally {
    deadline.dispose();
  }
}
