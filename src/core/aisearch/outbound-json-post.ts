import { endpointKey } from '../../infra/outbound/address-guard.js';
import { createOutboundClient, type OutboundClient } from '../../infra/outbound/outbound-client.js';
import type { JsonPost } from './llm-reranker.js';

/** Largest model answer read, in bytes. Default: 2 MB; a chat completion for a dozen quotes is a few kB. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * The re-ranker's `post` over Podtext's guarded outbound client. Redirects
 * are not followed (`maxRedirects: 0`): a model server has no reason to send
 * the prompt, and its key, anywhere else. A body that is not JSON is passed on
 * as `json: null`, which the re-ranker treats as a failed call.
 */
export function createOutboundJsonPost(client: OutboundClient): JsonPost {
  return async (url, headers, jsonBody, timeoutMs) => {
    const res = await client.request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(jsonBody),
      timeoutMs,
      maxRedirects: 0,
      maxBytes: MAX_ANSWER_BYTES,
    });
    let json: unknown = null;
    try {
      json = JSON.parse(res.body.toString('utf8'));
    } catch {
      // Left null: the caller falls back to the offline result.
    }
    return { status: res.status, json };
  };
}

/**
 * The outbound client for the AI endpoint only. The endpoint is set by the
 * operator (AI_URL) and is often a model server on the same host or network,
 * at a private address the guard refuses by default. Its exact `host:port` is
 * exempted for this one client, so the operator's choice works while feeds,
 * audio and webhooks, whose URLs come from the public, still cannot reach it.
 *
 * @param aiUrl The configured AI_URL.
 * @param allow Further `host:port` exemptions the operator configured for every client. Default: none.
 */
export function createAiOutboundClient(aiUrl: string, allow: string[] = []): OutboundClient {
  return createOutboundClient({ allow: [...allow, endpointKey(new URL(aiUrl))] });
}
