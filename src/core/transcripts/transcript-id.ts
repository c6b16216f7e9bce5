import { invalid } from '../errors.js';

const TRANSCRIPT_ID = /^[0-9a-f]{16}$/;

/** `invalid_request` naming `field` unless `value` is 16 lowercase hex digits. */
export function assertTranscriptId(value: string, field = 'transcript_id'): string {
  if (!TRANSCRIPT_ID.test(value)) throw invalid(field, 'must be 16 lowercase hex characters (^[0-9a-f]{16}$)');
  return value;
}
