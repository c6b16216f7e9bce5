/**
 * The one price table of Podtext. REST docs, GraphQL descriptions, openapi.json
 * and llms.txt all read their numbers from here.
 */

export type PlanName = 'free' | 'plus' | 'pro' | 'business';

export interface Plan {
  name: PlanName;
  /** Name shown to people. */
  title: string;
  /** Credits granted each billing cycle (no rollover). */
  monthlyCredits: number;
  /** Price in US dollars per month. */
  priceUsd: number;
  /** Keyed requests allowed per UTC day. */
  dailyRequests: number;
}

/**
 * Plans: the credit plans of the spec, each paired with one request allowance,
 * in the same order (the cheapest credit plan gets the smallest allowance).
 */
export const plans: Record<PlanName, Plan> = {
  free: { name: 'free', title: 'Free', monthlyCredits: 10, priceUsd: 0, dailyRequests: 1000 },
  plus: { name: 'plus', title: 'Plus', monthlyCredits: 120, priceUsd: 9, dailyRequests: 5000 },
  pro: { name: 'pro', title: 'Pro', monthlyCredits: 500, priceUsd: 29, dailyRequests: 20000 },
  business: { name: 'business', title: 'Business', monthlyCredits: 2000, priceUsd: 99, dailyRequests: 50000 },
};

export const planNames = Object.keys(plans) as PlanName[];

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(plans, value);
}

/** Credits granted by the first confirmation of a new account. */
export const SIGNUP_CREDITS = 10;

/** Credit prices of every action (spec section 1). */
export const prices = {
  /** Unlocking an episode Podtext already holds, once per account and episode. */
  unlock: 1,
  /** Standard-lane transcription, per rounded hour; the unlock is included. */
  transcribePerHour: 1,
  /** Fast-lane transcription, per rounded hour; the unlock is included. */
  fastTranscribePerHour: 2,
  /** One AI Search query, charged only for a result. */
  aiSearchQuery: 1,
} as const;

/**
 * Whole hours billed for `seconds` of audio: nearest hour, half up, minimum 1.
 * @example billableHours(5399) === 1; billableHours(5400) === 2; billableHours(0) === 1
 */
export function billableHours(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`Invalid duration: ${seconds}`);
  return Math.max(1, Math.floor(seconds / 3600 + 0.5));
}

/** Credits to transcribe one episode of `seconds`, unlock included. */
export function transcriptionCredits(seconds: number, fast: boolean): number {
  return billableHours(seconds) * (fast ? prices.fastTranscribePerHour : prices.transcribePerHour);
}

/** Human-readable price lines, shared by openapi.json, llms.txt and GraphQL descriptions. */
export const priceTable: { action: string; credits: string }[] = [
  { action: 'Search, show lookup, show details, episode lists, episode info, charts, trending, job polling, usage, webhooks endpoints', credits: '0' },
  { action: 'Unlock an episode the service already holds (any length)', credits: `${prices.unlock}, once per key and episode; 0 if this key already unlocked it` },
  { action: 'Transcribe an episode nobody has yet (standard lane)', credits: `${prices.transcribePerHour} per hour of audio, rounded to the nearest hour (half up), minimum 1; the unlock is included` },
  { action: 'Transcribe, fast lane (`fast: true`)', credits: `${prices.fastTranscribePerHour} per hour (same rounding and minimum); the unlock is included` },
  { action: 'Library episode inside a transcription request', credits: `${prices.unlock} each; nothing if the key already had it` },
  { action: 'AI Search query', credits: `${prices.aiSearchQuery} on every plan including Free; a query that fails charges nothing` },
];
