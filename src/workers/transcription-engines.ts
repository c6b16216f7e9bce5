import type { LaneConfig } from '../config.js';
import type { Lane } from '../core/jobs/lanes.js';
import type { AsrEngine } from '../infra/asr/asr-engine.js';
import { createAsrEngine } from '../infra/asr/create-asr-engine.js';
import { type PostFn, PostTimeoutError } from '../infra/asr/http-post.js';
import { endpointKey } from '../infra/outbound/address-guard.js';
import type { OutboundClient } from '../infra/outbound/outbound-client.js';
import { OutboundError } from '../infra/outbound/outbound-error.js';

/** Most bytes of a speech server's answer read: a verbose_json for an hour of speech is ~2 MB. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The OpenAI engine's `post`, sent through the guarded outbound client: no
 * redirects (a 3xx is an answer), bounded answer, and the silence allowed on
 * the socket as long as the whole request, since a server says nothing while
 * it recognises. The lane's own endpoint is exempt from the address guard
 * (see createLaneEngine), so a speech server on a private network needs no
 * OUTBOUND_ALLOW.
 */
export function outboundPost(client: OutboundClient): PostFn {
  return async (req) => {
    try {
      const res = await client.request(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        timeoutMs: req.timeoutMs,
        idleTimeoutMs: req.timeoutMs,
        maxRedirects: 0,
        maxBytes: MAX_ANSWER_BYTES,
        signal: req.signal,
      });
      return { status: res.status, body: res.body.toString('utf8') };
    } catch (err) {
      if (err instanceof OutboundError && err.code === 'timeout') throw new PostTimeoutError(req.timeoutMs);
      throw err;
    }
  };
}

/** The client an `openai` lane posts through: `client`, with the operator's configured endpoint exempt from the address guard. */
function laneClient(lane: LaneConfig, client: OutboundClient): OutboundClient {
  if (!lane.url || !URL.canParse(lane.url)) return client;
  const url = new URL(lane.url);
  return url.protocol === 'http:' || url.protocol === 'https:' ? client.exempting(endpointKey(url)) : client;
}

/**
 * One engine per lane, built from ASR_ENGINE / FAST_ASR_ENGINE and their
 * *_URL, *_MODEL, *_API_KEY. Only the lane posts to its own endpoint without
 * the address guard: feeds, audio and webhooks keep `client` as it is.
 */
export function createLaneEngine(lane: LaneConfig, client: OutboundClient, timeoutMs?: number): AsrEngine {
  switch (lane.engine) {
    case 'openai':
      return createAsrEngine('openai', { url: lane.url, model: lane.model, apiKey: lane.apiKey, post: outboundPost(laneClient(lane, client)), timeoutMs });
    case 'whisper-cpp':
      // One thread per engine run: parallelism comes from worker slots, one chunk each.
      return createAsrEngine('whisper-cpp', { binaryPath: lane.url, modelPath: lane.model, threads: 1 });
    default:
      return createAsrEngine('sphinx', {});
  }
}

export type LaneEngines = Record<Lane, AsrEngine>;

/** The lanes' settings: `fast` null when there is no fast lane. */
export interface LaneConfigs {
  standard: LaneConfig;
  fast: LaneConfig | null;
}

/**
 * Without a fast lane, `fast` is the standard engine itself: a fast task
 * queued before the fast lane was switched off runs there, and its premium is
 * refunded as for any fallback.
 */
export function createLaneEngines(lanes: LaneConfigs, client: OutboundClient, opts: { fastTimeoutMs?: number } = {}): LaneEngines {
  const standard = createLaneEngine(lanes.standard, client);
  return { standard, fast: lanes.fast ? createLaneEngine(lanes.fast, client, opts.fastTimeoutMs) : standard };
}
