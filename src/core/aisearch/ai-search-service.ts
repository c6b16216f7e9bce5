import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Logger } from '../../infra/logger.js';
import type { Actor } from '../accounts/actor.js';
import { DomainError, invalid } from '../errors.js';
import * as ledger from '../ledger.js';
import type { Links } from '../links.js';
import { prices } from '../pricing.js';
import { inTransaction } from '../transaction.js';
import { assertTranscriptId } from '../transcript-id.js';
import type { TranscriptService } from '../transcripts/transcript-service.js';
import type { LlmReranker } from './llm-reranker.js';
import { summarizeMentions } from './mention-summary.js';
import { notTranscribedError } from './not-transcribed-quote.js';
import { searchTopic } from './search-topic.js';
import { transcriptText, type FindResult, type SearchableTranscript } from './searchable-transcript.js';
import { toSearchable } from './stored-document.js';
import type { TopicFinder } from './topic-finder.js';
import { countWords } from '../transcripts/transcript-store.js';
import { namesSomething } from './topic-query.js';

/** Longest topic, in characters after trimming (spec section 8). */
export const MAX_TOPIC_CHARS = 200;

export interface AiSearchInput {
  transcriptId: string;
  topic: string;
}

export interface AiSearchMention {
  /** Verbatim substring of the stored transcript text. */
  quote: string;
  context: string;
  /** Start of the quote in seconds (millisecond precision), or null when it cannot be placed. */
  timestampSeconds: number | null;
  /** `{site}/t/{id}#t=<whole seconds>`; null exactly when `timestampSeconds` is. */
  listenUrl: string | null;
}

export interface AiSearchResult {
  transcriptId: string;
  /** The topic as searched (trimmed). */
  topic: string;
  found: boolean;
  summary: string;
  /** In time order. */
  mentions: AiSearchMention[];
  /** Credits this query charged: always `prices.aiSearchQuery` (1) for a result; a failed query is refunded. */
  credits: number;
  /** The balance after the charge. */
  creditsRemaining: number;
}

export interface AiSearchDeps {
  db: PrismaClient;
  transcripts: Pick<TranscriptService, 'document'>;
  finder: TopicFinder;
  /** Model re-ranking; without it the offline result is the answer. Default: none. */
  reranker?: LlmReranker | null;
  links: Links;
  /** Published after the charge and after a refund, so cached balances (`/me`) are dropped. */
  onAccountChanged(accountId: string): Promise<void>;
  /** Where a failure after the charge is logged once. Default: not logged. */
  log?: Logger;
  /** Memory for transcripts kept loaded with their search indexes, so repeated queries skip preparation. Default: 128 MB. */
  cachedBytes?: number;
}

function checkTopic(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid('topic', 'must be a string');
  const topic = raw.trim();
  const length = [...topic].length;
  if (length === 0) throw invalid('topic', 'must not be empty');
  if (length > MAX_TOPIC_CHARS) throw invalid('topic', `must be at most ${MAX_TOPIC_CHARS} characters (got ${length})`);
  // Refused before the charge: nothing in a transcript's words could match it.
  if (!/[\p{L}\p{N}]/u.test(topic)) throw invalid('topic', 'has no letters or digits to search for');
  if (!namesSomething(topic)) throw invalid('topic', 'has no word that can be searched for: words too common ("the", "and"…) and single letters (the "C" of "C++") are left out; name what to find in words');
  return topic;
}

/**
 * AI Search: finds a topic in one transcribed episode and answers with
 * verbatim quotes, times and listen links, for 1 credit.
 *
 * Order of checks: input (400), the episode (404), its transcript (409 with
 * the quoted total), the balance (402 when it is short; nothing is written).
 * Then the work (loading the stored document, searching it and, when
 * configured, the model's re-ranking), and only then the charge, in one
 * transaction with nothing after it: a query that fails, or that a shutdown
 * or a crash cuts off, has charged nothing and needs no refund (a failure
 * answers 500 `internal` saying so). A query at work holds its credit in this
 * process, so one key's queries at once start only as many as the balance
 * pays for (one paid model call each); a balance spent by another process or
 * call during the work answers 402 and charges nothing. A model that fails or times out
 * is not a failure: the offline result is the answer.
 *
 * No unlock is needed: the quotes and times are the product being paid for;
 * the full transcript still needs the unlock.
 */
export function createAiSearch(deps: AiSearchDeps) {
  const { db, transcripts, finder, reranker, links, onAccountChanged, log } = deps;
  // Queries of each account at work in this process. Each holds its credit
  // until charged, so a balance of 1 and ten queries at once start one search
  // (and one paid model call), not ten that all end in 402.
  const inFlight = new Map<string, number>();
  // Keyed by id and version: a replaced transcript is a new entry, and the finder's
  // prepared indexes hang off the document object itself.
  // Bounded by memory, not by count: a four-hour episode (40,000 words) with its indexes takes
  // some 12 MB and an hour's some 3 MB, so the default keeps about forty hour-long episodes warm.
  const loaded = new LRUCache<string, SearchableTranscript>({ maxSize: deps.cachedBytes ?? 128 * 1024 * 1024 });

  async function document(transcriptId: string, version: number): Promise<SearchableTranscript> {
    const key = `${transcriptId}:${version}`;
    const hit = loaded.get(key);
    if (hit) return hit;
    const stored = await transcripts.document(transcriptId);
    if (!stored) throw new Error(`transcript ${transcriptId} disappeared after the charge`);
    const doc = toSearchable(stored.doc);
    loaded.set(`${transcriptId}:${stored.version}`, doc, { size: 4_096 + countWords(stored.doc) * 300 });
    return doc;
  }

  function mentionsOf(transcriptId: string, doc: SearchableTranscript, result: FindResult): AiSearchMention[] {
    const text = transcriptText(doc);
    // The engine cuts quotes from this text; checking here keeps the promise whatever engine answered.
    return result.mentions
      .filter((m) => m.quote.length > 0 && text.includes(m.quote))
      .map((m) => {
        const t = m.timestampSeconds;
        const placed = t !== null && Number.isFinite(t) && t >= 0;
        return {
          quote: m.quote,
          context: m.context,
          timestampSeconds: placed ? Math.round(t * 1000) / 1000 : null,
          listenUrl: placed ? `${links.episodePage(transcriptId)}#t=${Math.floor(t)}` : null,
        };
      });
  }

  // A lost notice only leaves a cached balance stale for a moment; it must not fail a paid query.
  async function publish(accountId: string): Promise<void> {
    await onAccountChanged(accountId).catch((err: unknown) => log?.warn({ err, accountId }, 'account change not published'));
  }

  /** Searches, then charges: a failure before the charge costs nothing. */
  async function searchAndCharge(actor: Actor, transcriptId: string, topic: string, version: number, reference: string, memo: string): Promise<AiSearchResult> {
    let answer: Omit<AiSearchResult, 'creditsRemaining'>;
    try {
      const doc = await document(transcriptId, version);
      const result = await searchTopic(doc, topic, { finder, reranker });
      const mentions = mentionsOf(transcriptId, doc, result);
      const summary = mentions.length === result.mentions.length ? result.summary : summarizeMentions(topic, mentions, 0);
      answer = { transcriptId, topic, found: mentions.length > 0, summary, mentions, credits: prices.aiSearchQuery };
    } catch (err) {
      log?.error({ err, transcriptId, accountId: actor.accountId }, 'AI Search failed');
      throw new DomainError('internal', `AI Search failed on our side; nothing was charged for this query.`);
    }
    const { entry } = await inTransaction(db, (tx) => ledger.charge(tx, actor.accountId, prices.aiSearchQuery, reference, memo));
    await publish(actor.accountId);
    return { ...answer, creditsRemaining: entry.balanceAfter };
  }

  return {
    /**
     * Runs one query for `actor`. See {@link createAiSearch} for the checks,
     * the charge and the refund.
     */
    async query(actor: Actor, input: AiSearchInput): Promise<AiSearchResult> {
      const transcriptId = assertTranscriptId(typeof input.transcriptId === 'string' ? input.transcriptId : '');
      const topic = checkTopic(input.topic);
      const episode = await db.episode.findUnique({
        where: { transcriptId },
        select: { durationSeconds: true, transcriptStatus: true, transcript: { select: { version: true } } },
      });
      if (!episode) throw new DomainError('not_found', `No episode ${transcriptId}; episode lists (GET /shows/{feed_id}/episodes) give transcript ids.`);
      if (!episode.transcript) throw notTranscribedError(transcriptId, episode.durationSeconds, episode.transcriptStatus);

      const reference = `aisearch:${randomUUID()}`;
      const chars = [...topic];
      const memo = `AI Search on ${transcriptId}: "${chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : topic}"`;
      const account = await db.account.findUnique({ where: { id: actor.accountId }, select: { credits: true } });
      const credits = account?.credits ?? 0;
      const running = inFlight.get(actor.accountId) ?? 0;
      const held = running * prices.aiSearchQuery;
      if (credits - held < prices.aiSearchQuery) {
        const why = held > 0 ? ` (${held} of it held by this key's queries still running)` : '';
        throw new DomainError('insufficient_credits', `This needs ${prices.aiSearchQuery} credit; the balance is ${credits}${why}.`, { required: prices.aiSearchQuery, available: credits - held });
      }
      inFlight.set(actor.accountId, running + 1);
      try {
        return await searchAndCharge(actor, transcriptId, topic, episode.transcript.version, reference, memo);
      } finally {
        const left = (inFlight.get(actor.accountId) ?? 1) - 1;
        if (left > 0) inFlight.set(actor.accountId, left);
        else inFlight.delete(actor.accountId);
      }
    },
  };
}

export type AiSearchService = ReturnType<typeof createAiSearch>;
