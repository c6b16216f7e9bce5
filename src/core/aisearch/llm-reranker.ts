import { formatClock, summarizeMentions } from './mention-summary.js';
import type { FindResult, TopicMention } from './searchable-transcript.js';
import type { TopicCandidate } from './topic-finder.js';

/** Sends one JSON POST; the caller supplies the HTTP client (and its outbound guard). */
export type JsonPost = (
  url: string,
  headers: Record<string, string>,
  jsonBody: unknown,
  timeoutMs: number,
) => Promise<{ status: number; json: unknown }>;

export interface LlmRerankerOptions {
  /** Base URL of an OpenAI-compatible server (`…/v1` or the full `…/v1/chat/completions` also work). */
  url: string;
  model: string;
  /** Sent as a bearer token when set. */
  apiKey?: string | null;
  /** Whole-request limit in milliseconds. Default: 8000. */
  timeoutMs?: number;
  /** Most mentions kept. Default: 5. */
  maxMentions?: number;
  post: JsonPost;
}

export interface RerankInput {
  topic: string;
  /** The transcript text quotes must be substrings of. */
  transcriptText: string;
  /** The offline engine's candidates, best first. */
  candidates: TopicCandidate[];
  /** Start time of the word at a character offset of `transcriptText`. */
  timeAt(offset: number): number | null;
}

export interface LlmReranker {
  /** A re-ranked result, or null when the model failed, timed out or answered unusably. */
  rerank(input: RerankInput): Promise<FindResult | null>;
}

/** Default time the whole model call may take. */
export const DEFAULT_LLM_TIMEOUT_MS = 8000;
const MAX_SUMMARY_CHARS = 1200;
/** How far from its candidate a model's quote may be found before it counts as lifted from elsewhere. */
const MAX_QUOTE_DRIFT = 4000;

function endpoint(url: string): string {
  const base = url.replace(/\/+$/, '');
  if (base.endsWith('/chat/completions')) return base;
  return base.endsWith('/v1') ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

function prompt(topic: string, candidates: TopicCandidate[]): string {
  const lines = candidates.map((c) => {
    const at = c.timestampSeconds === null ? '' : ` (${formatClock(c.timestampSeconds)})`;
    return `[${c.id}]${at} quote: ${JSON.stringify(c.quote)}\n    context: ${JSON.stringify(c.context)}`;
  });
  return [
    `Topic: ${JSON.stringify(topic)}`,
    'Candidate passages from a podcast transcript (speech recognition output, may contain errors):',
    ...lines,
    '',
    'Pick the candidates that are really about the topic, most relevant first, and leave out the others.',
    'For each, you may shorten the quote, but copy it character for character from that candidate\'s quote or context.',
    'Then write a one-paragraph summary of what the transcript says about the topic.',
    'Answer with JSON only: {"mentions": [{"id": <number>, "quote": "<verbatim text>"}], "summary": "<paragraph>"}',
  ].join('\n');
}

function contentOf(json: unknown): string | null {
  const choices = (json as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return null;
  const content = (choices[0] as { message?: { content?: unknown } })?.message?.content;
  return typeof content === 'string' ? content : null;
}

interface ModelAnswer {
  mentions: { id: number; quote: string | null }[];
  summary: string | null;
}

function parseAnswer(content: string): ModelAnswer | null {
  // Models often wrap JSON in a code fence or add a sentence around it.
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let data: unknown;
  try {
    data = JSON.parse(content.slice(start, end + 1));
  } catch {
    return null;
  }
  const raw = (data as { mentions?: unknown })?.mentions;
  if (!Array.isArray(raw)) return null;
  const mentions: ModelAnswer['mentions'] = [];
  for (const m of raw) {
    const id = Number((m as { id?: unknown })?.id);
    const quote = (m as { quote?: unknown })?.quote;
    if (!Number.isInteger(id)) continue;
    mentions.push({ id, quote: typeof quote === 'string' && quote.trim() ? quote.trim() : null });
  }
  const summary = (data as { summary?: unknown }).summary;
  return { mentions, summary: typeof summary === 'string' && summary.trim() ? summary.trim() : null };
}

/** Where `quote` occurs in `text` closest to `target`, within `drift` characters; -1 when nowhere there. */
function nearestOccurrence(text: string, quote: string, target: number, drift: number): number {
  let best = -1;
  for (let at = text.indexOf(quote, Math.max(0, target - drift)); at >= 0 && at <= target + drift; at = text.indexOf(quote, at + 1)) {
    if (best < 0 || Math.abs(at - target) < Math.abs(best - target)) best = at;
    if (at >= target) break;
  }
  return best;
}

/**
 * Re-ranks the offline engine's candidates with a chat model through an
 * OpenAI-compatible `/v1/chat/completions` endpoint. The model only chooses
 * and orders candidate ids, may shorten quotes and writes the summary; every
 * quote it returns must still be a verbatim substring of the transcript near
 * its candidate, or it is dropped. Any failure (error status, timeout,
 * unparsable answer, or no quote surviving the check) gives null so the
 * caller keeps the offline result.
 *
 * @example
 * const reranker = createLlmReranker({ url: 'http://127.0.0.1:8081', model: 'qwen2.5-7b-instruct', post });
 * const result = await reranker.rerank({ topic, transcriptText, candidates, timeAt });
 */
export function createLlmReranker(options: LlmRerankerOptions): LlmReranker {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const maxMentions = options.maxMentions ?? 5;
  const url = endpoint(options.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function call(body: unknown): Promise<{ status: number; json: unknown } | null> {
    let timer: NodeJS.Timeout | undefined;
    // The injected client should honour the limit itself; this keeps a promise to the caller if it does not.
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    try {
      return await Promise.race([options.post(url, headers, body, timeoutMs), timeout]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async rerank({ topic, transcriptText, candidates, timeAt }) {
      if (candidates.length === 0) return null;
      const response = await call({
        model: options.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: 'You find where a podcast transcript discusses a topic. You answer with JSON only and never invent quotes.' },
          { role: 'user', content: prompt(topic, candidates) },
        ],
      });
      if (!response || response.status !== 200) return null;
      const content = contentOf(response.json);
      const answer = content === null ? null : parseAnswer(content);
      if (!answer) return null;

      const byId = new Map(candidates.map((c) => [c.id, c]));
      const kept: (TopicMention & { offset: number })[] = [];
      for (const m of answer.mentions) {
        if (kept.length >= maxMentions) break;
        const candidate = byId.get(m.id);
        if (!candidate) continue;
        const quote = m.quote ?? candidate.quote;
        // Timed where a candidate shown holds it (the one named, else another the model mixed up), nearest that
        // candidate: searched from anywhere else, a short quote ("the") would take the time of another place.
        const holds = (c: TopicCandidate) => c.quote.includes(quote) || c.context.includes(quote);
        const owner = holds(candidate) ? candidate : candidates.find(holds);
        if (!owner) continue;
        const offset = nearestOccurrence(transcriptText, quote, owner.offset, MAX_QUOTE_DRIFT);
        if (offset < 0) continue;
        if (kept.some((k) => k.offset === offset)) continue;
        kept.push({ quote, context: candidate.context, timestampSeconds: timeAt(offset), offset });
      }
      if (answer.mentions.length > 0 && kept.length === 0) return null;

      const strongest = kept[0];
      const ordered = [...kept].sort((a, b) => a.offset - b.offset);
      const mentions = ordered.map(({ quote, context, timestampSeconds }) => ({ quote, context, timestampSeconds }));
      const summary = answer.summary
        ? answer.summary.slice(0, MAX_SUMMARY_CHARS)
        : summarizeMentions(topic, mentions, strongest ? ordered.indexOf(strongest) : 0);
      return { found: mentions.length > 0, summary, mentions };
    },
  };
}
