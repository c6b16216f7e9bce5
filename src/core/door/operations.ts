import { prices } from '../pricing.js';

/**
 * Who may call an operation:
 * - `required`: only with a valid key;
 * - `optional`: with or without a key (a call made with a key is still checked and counted);
 * - `none`: the key is not read at all, and nothing is counted.
 */
export type KeyRule = 'required' | 'optional' | 'none';

/** What the door needs to know of a call's input to apply an operation's rule. */
export interface OperationInput {
  /** The transcript a call reads, for the public-sample rule. */
  transcriptId?: string;
}

export interface Operation {
  /** The key rule, or one that depends on the call's input (the public sample). */
  key: KeyRule | ((input: OperationInput, sampleTranscriptId: string) => KeyRule);
  /**
   * Requests counted against the daily allowance when the call carries a key
   * (spec section 1: every call made with a key counts 1). Calls without a
   * key, and operations whose key rule is `none`, count 0.
   */
  requests: 0 | 1;
  /** The credit rule, as written in the docs of every transport. */
  credits: string;
  /**
   * The answer carries a key or a webhook signing secret: every transport
   * marks it `Cache-Control: no-store`, so no browser cache or proxy keeps it.
   * Default: false.
   */
  secret?: true;
}

const free = '0 credits';
const keyed = (credits = free): Operation => ({ key: 'required', requests: 1, credits });

/**
 * Every operation Podtext offers, declared once. REST routes (by
 * `operationId`) and GraphQL root fields (by their `operation` extension)
 * point here; the door admits every call through the entry it names.
 */
export const operations = {
  startRegistration: { key: 'none', requests: 0, credits: free },
  confirmRegistration: { key: 'none', requests: 0, credits: free, secret: true },
  getMe: keyed(),
  getUsage: keyed(),
  rotateKey: { ...keyed(), secret: true },
  openBillingPortal: keyed(),
  startCheckout: keyed(),
  searchShows: keyed(),
  lookupShow: keyed(),
  getShow: keyed(),
  listEpisodes: keyed(),
  getEpisode: keyed(),
  getCharts: keyed(),
  getTrending: keyed(),
  getTranscript: {
    // The public sample is readable by anyone; a key sent along still counts.
    key: (input, sample) => (input.transcriptId === sample ? 'optional' : 'required'),
    requests: 1,
    credits: `${free} (the episode must be unlocked first)`,
  },
  unlockTranscript: keyed(`${prices.unlock} credit once per account and episode; 0 after`),
  requestTranscription: keyed('the quote: 1 per hour standard, 2 per hour fast, 1 per library episode; 0 for a dry run'),
  listJobs: keyed(),
  getJob: keyed(),
  watchJob: keyed(),
  watchMyJobs: keyed(),
  getWebhookSecret: { ...keyed(), secret: true },
  rotateWebhookSecret: { ...keyed(), secret: true },
  createWebhookInbox: keyed(),
  getWebhookInbox: keyed(),
  searchTranscript: keyed(`${prices.aiSearchQuery} credit, refunded automatically on failure`),
  /** Health probes at the site root: keyless and never counted, so a probe cannot spend anyone's allowance. */
  getLivez: { key: 'none', requests: 0, credits: free },
  getReadyz: { key: 'none', requests: 0, credits: free },
  /**
   * A call that names no operation: an unknown path or method under
   * `/api/v1`, a GraphQL document that does not parse or validate, or one
   * that selects only `__typename` or introspection. Counted like any call
   * made with a key.
   */
  unknownCall: { key: 'optional', requests: 1, credits: free },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof operations;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

/** The key rule of `name` for this call's input. */
export function keyRuleOf(name: OperationName, input: OperationInput, sampleTranscriptId: string): KeyRule {
  const op: Operation = operations[name];
  return typeof op.key === 'function' ? op.key(input, sampleTranscriptId) : op.key;
}
