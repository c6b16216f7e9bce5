import type { OutboundClient } from '../../infra/outbound/outbound-client.js';
import { OutboundError } from '../../infra/outbound/outbound-error.js';
import type { ClaimedDelivery, AttemptResult } from './delivery-claims.js';
import { signatureHeader } from './signature.js';

/** Headers of every delivery, lower-case as sent. */
export const DELIVERY_HEADERS = {
  event: 'x-service-event',
  job: 'x-service-job',
  delivery: 'x-service-delivery',
  signature: 'x-service-signature',
} as const;

/** Failures that a later attempt cannot fix: the URL itself is unusable. */
const PERMANENT = new Set(['bad_scheme', 'bad_url']);

export interface SendOptions {
  client: OutboundClient;
  /** Signing secrets, current first. */
  secrets: string[];
  /** This attempt's time: `t` of the signature and `sent_at` of the body. */
  at: Date;
  timeoutMs: number;
  /** False only for this Podtext's own test inbox, which may be plain http in local use. */
  httpsOnly: boolean;
  signal?: AbortSignal;
  userAgent: string;
}

/** The exact bytes of one attempt's body. */
export function deliveryBody(d: ClaimedDelivery, at: Date): string {
  return JSON.stringify({ event: d.event, job: d.payload, sent_at: at.toISOString() });
}

/**
 * One POST of one delivery. Success is a 2xx status within the time limit;
 * the answer's body is never read, so a receiver that answers 200 and then
 * keeps its connection open (or streams) is delivered at its status. A
 * redirect is answered as it came and counts as a failure, like any other
 * status. The caller's `signal` aborting (shutdown) is rethrown, since the
 * attempt did not reach a result.
 */
export async function sendAttempt(d: ClaimedDelivery, o: SendOptions): Promise<AttemptResult> {
  const body = deliveryBody(d, o.at);
  const t = Math.floor(o.at.getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await o.client.request(d.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': o.userAgent,
        [DELIVERY_HEADERS.event]: d.event,
        [DELIVERY_HEADERS.job]: d.jobId,
        [DELIVERY_HEADERS.delivery]: d.id,
        [DELIVERY_HEADERS.signature]: signatureHeader(o.secrets, t, body),
      },
      body,
      headersOnly: true,
      timeoutMs: o.timeoutMs,
      // The whole attempt has one limit; a silent socket must not end it sooner.
      idleTimeoutMs: o.timeoutMs,
      maxRedirects: 0,
      httpsOnly: o.httpsOnly,
      signal: o.signal,
      // With tracing on, the receiver can join the trace of this delivery.
      propagateTrace: true,
    });
    const delivered = res.status >= 200 && res.status < 300;
    const error = delivered ? null : res.status >= 300 && res.status < 400 ? `redirect (${res.status}) not followed` : `status ${res.status}`;
    return { at: o.at, statusCode: res.status, error, durationMs: elapsed(), delivered, permanent: false };
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    if (err.code === 'aborted') throw err;
    return { at: o.at, statusCode: null, error: `${err.code}: ${err.message}`, durationMs: elapsed(), delivered: false, permanent: PERMANENT.has(err.code) };
  }
}
