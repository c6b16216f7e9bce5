import { prices } from '../pricing.js';

/** The two queues of transcription work: `fast` is claimed first and runs on the fast-lane engine. */
export type Lane = 'standard' | 'fast';

export const LANES: readonly Lane[] = ['standard', 'fast'];

/** Extra credits per billed hour on the fast lane: what is refunded when the lane's promise is not kept. */
export const FAST_PREMIUM_PER_HOUR = prices.fastTranscribePerHour - prices.transcribePerHour;

export function laneOf(fast: boolean): Lane {
  return fast ? 'fast' : 'standard';
}
