/** Why an outbound request failed. One closed list so callers can switch on it. */
export type OutboundErrorCode =
  | 'blocked_address'
  | 'bad_scheme'
  | 'bad_url'
  | 'too_large'
  | 'timeout'
  | 'too_many_redirects'
  | 'network'
  | 'http_status'
  | 'aborted';

/** Facts about a failure, safe to log (never headers or bodies). */
export interface OutboundErrorDetails {
  url?: string;
  address?: string;
  status?: number;
}

/** The only error the outbound client throws. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly details: OutboundErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundError';
  }
}

/** Turns whatever a socket, stream or zlib threw into an OutboundError. */
export function toOutboundError(err: unknown, url: string): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return new OutboundError('network', code ? `${code}: ${message}` : message, { url }, { cause: err });
}
