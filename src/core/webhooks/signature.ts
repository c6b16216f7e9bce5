import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature. */
export const SIGNATURE_HEADER = 'X-Service-Signature';

/** How the signature is made, as `GET /webhooks/secret` describes it. */
export const SIGNATURE_SCHEME =
  't=<unix seconds>,v1=<hex HMAC-SHA256 of (t + "." + raw body), keyed with the secret as UTF-8>; ' +
  'for 24 hours after a rotation a second v1= carries the signature with the previous secret. ' +
  'Verify over the raw body, compare in constant time, reject t older than 300 seconds.';

/** Largest age of `t` a receiver should accept, in seconds. Default: 300. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The hex HMAC-SHA256 of `t + "." + rawBody`, keyed with `secret` (UTF-8).
 * @param t unix seconds of the attempt.
 * @example signPayload('whsec_x', 1767225600, '{"event":"job.done"}') // '5f0c…' (64 hex)
 */
export function signPayload(secret: string, t: number, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

/**
 * The whole header value: `t=<t>,v1=<hex>` with one `v1=` per secret, current first.
 * @example signatureHeader(['whsec_new', 'whsec_old'], 1767225600, body) // 't=1767225600,v1=…,v1=…'
 */
export function signatureHeader(secrets: string[], t: number, rawBody: string | Uint8Array): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${signPayload(s, t, rawBody)}`)].join(',');
}

/** Why a signature was refused. */
export type SignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'no_matching_signature';

export type VerifyResult = { ok: true; t: number } | { ok: false; reason: SignatureFailure };

export interface VerifyInput {
  /** The `X-Service-Signature` value as received (undefined or null when absent; Node gives an array for a repeated header). */
  header: string | readonly string[] | null | undefined;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** Every secret that may have signed: the current one, and the previous one during a rotation. */
  secrets: string[];
  /** The receiver's time. Default: now. */
  now?: Date;
  /** Largest accepted age of `t` (and skew into the future), in seconds. Default: 300. */
  toleranceSeconds?: number;
}

function parseHeader(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      v1.push(value.toLowerCase());
    }
    // Unknown schemes (v0, v2 …) are skipped, so new ones can be added without breaking receivers.
  }
  return t === null ? null : { t, v1 };
}

/** Constant-time equality of two hex digests; a wrong length is simply unequal. */
function sameDigest(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}

/**
 * Checks an `X-Service-Signature` header the way a receiver must: over the raw
 * body, in constant time, refusing a `t` more than `toleranceSeconds` old (a
 * replayed delivery). Any `v1=` value made with any of `secrets` passes.
 *
 * @example
 * const r = verifySignature({ header: req.headers['x-service-signature'], rawBody, secrets: [secret] });
 * if (!r.ok) return res.writeHead(400).end(r.reason);
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  // An empty secret (an unset variable read as '') would accept a signature anyone can make.
  if (input.secrets.length === 0 || input.secrets.some((s) => typeof s !== 'string' || s.trim() === '')) {
    throw new TypeError('verifySignature: secrets must be the webhook secrets (non-empty strings); is the secret configured?');
  }
  // Sent twice, the header is ambiguous: which one was meant is not for the receiver to guess.
  if (Array.isArray(input.header) && input.header.length > 1) return { ok: false, reason: 'malformed_header' };
  const header: string | null | undefined = Array.isArray(input.header) ? input.header[0] : (input.header as string | null | undefined);
  if (!header) return { ok: false, reason: 'missing_header' };
  const parsed = parseHeader(header);
  if (!parsed || parsed.v1.length === 0) return { ok: false, reason: 'malformed_header' };
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (nowSeconds - parsed.t > tolerance) return { ok: false, reason: 'timestamp_too_old' };
  if (parsed.t - nowSeconds > tolerance) return { ok: false, reason: 'timestamp_in_future' };
  let matched = false;
  // Every pair is compared, so the time taken does not tell which secret or value matched.
  for (const secret of input.secrets) {
    const expected = signPayload(secret, parsed.t, input.rawBody);
    for (const given of parsed.v1) if (sameDigest(expected, given)) matched = true;
  }
  return matched ? { ok: true, t: parsed.t } : { ok: false, reason: 'no_matching_signature' };
}
