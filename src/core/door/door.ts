import type { Actor } from '../accounts/actor.js';
import type { KeyService } from '../accounts/key-service.js';
import type { MeterResult, Metering } from '../accounts/metering.js';
import { type Clock, secondsToNextUtcDay } from '../clock.js';
import { DomainError } from '../errors.js';
import { plans } from '../pricing.js';
import { type Credentials, keyFromCredentials } from './credentials.js';
import { type KeyRule, type Operation, type OperationInput, type OperationName, keyRuleOf, operations } from './operations.js';

/** The rate-limit headers, as a plain object every transport can copy. */
export interface RateLimitHeaders {
  readonly 'x-ratelimit-limit': string;
  readonly 'x-ratelimit-remaining': string;
  /** Set when an operation's answer carries a secret (see `Operation.secret`). */
  readonly 'cache-control'?: 'no-store';
}

/** What a call not counted against any account reports: the Free allowance, untouched. */
export const KEYLESS_METER: MeterResult = { allowed: true, limit: plans.free.dailyRequests, remaining: plans.free.dailyRequests };

/** The rate-limit headers of `meter`. */
export function rateLimitHeaders(meter: MeterResult): RateLimitHeaders {
  return { 'x-ratelimit-limit': String(meter.limit), 'x-ratelimit-remaining': String(Math.max(0, meter.remaining)) };
}

export const KEYLESS_HEADERS: RateLimitHeaders = Object.freeze(rateLimitHeaders(KEYLESS_METER));

/** One call through the door: the operation and what of its input the rule reads. */
export interface Call {
  operation: OperationName;
  input?: OperationInput;
}

/**
 * The door's answer. It never throws for the caller's mistakes: `error` is
 * set instead, so every transport can still stamp `headers` on the refusal.
 */
export interface Admission {
  actor: Actor | null;
  meter: MeterResult;
  headers: RateLimitHeaders;
  error: DomainError | null;
  /** Requests counted against the allowance by this admission: 0 when keyless or refused. */
  counted: number;
}

export interface SessionAuthenticator {
  /** The actor of a signed-in browser; `unauthorized` when the session is unknown or its key retired. */
  authenticate(token: string): Promise<Actor>;
}

export interface DoorDeps {
  keys: KeyService;
  clock: Clock;
  metering: Metering;
  sampleTranscriptId: string;
  sessions?: SessionAuthenticator;
}

/** An admission that counts nothing and reports the Free allowance untouched. */
function uncounted(actor: Actor | null): Admission {
  return { actor, meter: KEYLESS_METER, headers: KEYLESS_HEADERS, error: null, counted: 0 };
}

const NEEDS_KEY = 'This call needs an API key: "Authorization: Bearer <key>" or "X-Api-Key: <key>".';

function strictest(rules: KeyRule[]): KeyRule {
  if (rules.includes('required')) return 'required';
  return rules.includes('optional') ? 'optional' : 'none';
}

/**
 * The one admission rule of every transport. A call names its operations;
 * the door finds the caller (key, website session, or an actor a transport
 * already holds), counts the requests the operations cost, and says which
 * rate-limit headers go back, whatever the answer:
 * - a call that needs no key (`none`) is not read for a key and counts 0;
 * - a call made with a valid key counts each of its operations' requests,
 *   also when the answer will be an error (400, 402, 404, 405, 413, …);
 * - a key that matches no account (401), or two different keys (400), is
 *   not counted: there is no account to count against. Such answers, and
 *   every call without a key, report the Free allowance untouched.
 */
export function createDoor({ keys, clock, metering, sampleTranscriptId, sessions }: DoorDeps) {
  /** The caller behind `credentials`: at once when the key is known here, else once it is read. */
  function identify(credentials: Credentials): Actor | null | Promise<Actor | null> {
    const key = keyFromCredentials(credentials);
    if (key) return keys.known(key) ?? keys.authenticate(key);
    if (credentials.session && sessions) return sessions.authenticate(credentials.session);
    return null;
  }

  /** Counts `cost` requests for `actor`: at once when its count is in memory, else once it is read. */
  function meterFor(actor: Actor, cost: number): Admission | Promise<Admission> {
    if (cost === 0) return uncounted(actor);
    const meter = metering.takeKnown(actor, cost);
    return meter ? metered(actor, cost, meter) : metering.take(actor, cost).then((m) => metered(actor, cost, m));
  }

  function metered(actor: Actor, cost: number, meter: MeterResult): Admission {
    const headers = rateLimitHeaders(meter);
    if (!meter.allowed) {
      // A GraphQL document of several root fields may need more than is left without the allowance being spent.
      const message = cost > 1 && meter.remaining > 0
        ? `This operation needs ${cost} requests; ${meter.remaining} of the daily allowance of ${meter.limit} remain until 00:00 UTC. Send fewer root fields.`
        : `The daily allowance of ${meter.limit} requests is spent; it resets at 00:00 UTC.`;
      // Clients that honour Retry-After wait until the allowance resets.
      const error = new DomainError('rate_limited', message, { retryAfter: secondsToNextUtcDay(clock.now()) });
      return { actor, meter, headers, error, counted: 0 };
    }
    return { actor, meter, headers, error: null, counted: cost };
  }

  function refused(error: unknown): Admission {
    if (!(error instanceof DomainError)) throw error;
    return { ...uncounted(null), error };
  }

  /** True when an operation of `list` answers with a secret (see `Operation.secret`). */
  const carriesSecret = (list: readonly Call[]): boolean => list.some((c) => (operations[c.operation] as Operation).secret);

  /** The admission with headers saying no-store, for calls whose answer carries a secret. */
  const sealed = (admission: Admission): Admission => ({ ...admission, headers: { ...admission.headers, 'cache-control': 'no-store' } });

  /**
   * Not async: a warm call (its key and today's count known here) is
   * admitted without a promise, as most calls are.
   */
  function admitList(list: readonly Call[], credentials: Credentials): Admission | Promise<Admission> {
    const rules = list.map((c) => keyRuleOf(c.operation, c.input ?? {}, sampleTranscriptId));
    const rule = strictest(rules);
    if (rule === 'none') return uncounted(null);
    let found: Actor | null | Promise<Actor | null>;
    try {
      found = identify(credentials);
    } catch (err) {
      return refused(err);
    }
    let cost = 0;
    list.forEach((c, i) => (cost += rules[i] === 'none' ? 0 : operations[c.operation].requests));
    return found instanceof Promise ? found.then((actor) => admitFound(actor, rule, cost), refused) : admitFound(found, rule, cost);
  }

  function admitFound(actor: Actor | null, rule: KeyRule, cost: number): Admission | Promise<Admission> {
    if (actor) return meterFor(actor, cost);
    if (rule === 'required') return refused(new DomainError('unauthorized', NEEDS_KEY));
    return uncounted(null);
  }

  return {
    /**
     * Admits `calls` (one for REST; a GraphQL operation's root fields) made
     * with `credentials`. A warm call is answered at once, others with a
     * promise: callers await either.
     */
    admit(calls: Call | readonly Call[], credentials: Credentials): Admission | Promise<Admission> {
      const list = Array.isArray(calls) ? (calls as readonly Call[]) : [calls as Call];
      // Not async: every call comes through here, and most need no second step.
      const admitted = admitList(list, credentials);
      if (!carriesSecret(list)) return admitted;
      return admitted instanceof Promise ? admitted.then(sealed) : sealed(admitted);
    },

    /**
     * Admits calls for an actor a transport authenticated earlier (a
     * graphql-ws connection's handshake), without reading a key again; the
     * admission's `actor` is that key's account as it is now (its plan).
     */
    async admitActor(calls: readonly Call[], actor: Actor): Promise<Admission> {
      let cost = 0;
      for (const c of calls) if (keyRuleOf(c.operation, c.input ?? {}, sampleTranscriptId) !== 'none') cost += operations[c.operation].requests;
      // The plan as it is now, not as it was at the handshake: its allowance is the one counted against.
      // A call that needs no key (registration) reads none, as over HTTP.
      let current = actor;
      try {
        if (cost > 0) current = await keys.current(actor);
      } catch (err) {
        return refused(err);
      }
      const admitted = await meterFor(current, cost);
      return carriesSecret(calls) ? sealed(admitted) : admitted;
    },

    /** The caller behind `credentials`, counting nothing (a graphql-ws handshake). */
    async authenticate(credentials: Credentials): Promise<Actor | null> {
      return identify(credentials);
    },
  };
}

export type Door = ReturnType<typeof createDoor>;
