import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmReranker, type JsonPost } from './llm-reranker.js';
import { searchTopic } from './search-topic.js';
import { transcriptText, type SearchableTranscript } from './searchable-transcript.js';
import { createTopicFinder } from './topic-finder.js';

const doc: SearchableTranscript = {
  language: 'en',
  wordTimesEstimated: false,
  segments: [
    { start: 0, end: 6, text: 'Welcome back. Today we talk about the street.', speaker: 'Dana', words: [] },
    {
      start: 6,
      end: 14,
      text: 'Most of the width is given over to cars, parked on both sides.',
      speaker: 'Siobhan',
      words: 'Most of the width is given over to cars, parked on both sides.'.split(' ').map((w, i) => ({ w, s: 6 + i * 0.5 })),
    },
    { start: 14, end: 20, text: 'My daughter rides her bike to school now.', speaker: 'Marcus', words: [] },
    { start: 20, end: 28, text: 'An electric automobile still sits in the same traffic jam.', speaker: 'Siobhan', words: [] },
  ],
};

/** One canned reply per test, in the documented chat-completions response shape. */
type Reply = { status: number; content?: string; delayMs?: number };
let reply: Reply = { status: 200, content: '{}' };
const requests: { auth: string | undefined; body: { model: string; messages: { role: string; content: string }[] } }[] = [];

function completion(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'local-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
  };
}

let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      requests.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
      const send = (): void => {
        if (res.destroyed) return;
        if (reply.status !== 200) {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completion(reply.content ?? '')));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The caller's HTTP client: here plain fetch with an abort timer. */
const post: JsonPost = async (url, headers, body, timeoutMs) => {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, json: await res.json().catch(() => null) };
};

const finder = createTopicFinder();

describe('LLM re-ranking', () => {
  it('keeps the model choice and summary, with verbatim quotes and times', async () => {
    reply = {
      status: 200,
      content: JSON.stringify({
        mentions: [
          { id: 2, quote: 'An electric automobile still sits in the same traffic jam.' },
          { id: 1, quote: 'given over to cars' },
        ],
        summary: 'The guest says cars take most of the street, electric ones included.',
      }),
    };
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', apiKey: 'k-123', post });
    const candidates = finder.candidates(doc, 'cars');
    expect(candidates.map((c) => c.quote)).toEqual([
      'Most of the width is given over to cars, parked on both sides.',
      'An electric automobile still sits in the same traffic jam.',
    ]);
    const result = await searchTopic(doc, 'cars', { finder, reranker });
    expect(result.found).toBe(true);
    expect(result.summary).toBe('The guest says cars take most of the street, electric ones included.');
    expect(result.mentions.map((m) => m.quote)).toEqual(['given over to cars', 'An electric automobile still sits in the same traffic jam.']);
    for (const m of result.mentions) expect(transcriptText(doc)).toContain(m.quote);
    // "given" is word 6 of segment 1, recognised at 6 + 5 * 0.5 s; segment 3 has no words, so its start.
    expect(result.mentions.map((m) => m.timestampSeconds)).toEqual([8.5, 20]);
    const last = requests.at(-1)!;
    expect(last.auth).toBe('Bearer k-123');
    expect(last.body.model).toBe('local-model');
    expect(last.body.messages[1].content).toContain('[1]');
  });

  it('drops a quote the model invented and keeps the verbatim one', async () => {
    reply = {
      status: 200,
      content:
        '```json\n' +
        JSON.stringify({
          mentions: [
            { id: 1, quote: 'Cars are ruining every street in the country.' },
            { id: 2, quote: 'electric automobile' },
          ],
          summary: 'Cars and electric cars.',
        }) +
        '\n```',
    };
    const reranker = createLlmReranker({ url: `${baseUrl}/v1`, model: 'local-model', post });
    const result = await searchTopic(doc, 'cars', { finder, reranker });
    expect(result.mentions.map((m) => m.quote)).not.toContain('Cars are ruining every street in the country.');
    // The model's verbatim choice stays; the sentence that says "cars" outright stays too, whatever the model did with it.
    expect(result.mentions.map((m) => m.quote)).toEqual(['Most of the width is given over to cars, parked on both sides.', 'electric automobile']);
    expect(result.mentions[1].timestampSeconds).toBe(20);
  });

  it('cannot answer found: false, or leave out, a mention that says the topic outright', async () => {
    reply = { status: 200, content: JSON.stringify({ mentions: [], summary: 'Cars are not discussed.' }) };
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', post });
    const result = await searchTopic(doc, 'cars', { finder, reranker });
    expect(result.found).toBe(true);
    expect(result.mentions.map((m) => m.quote)).toContain('Most of the width is given over to cars, parked on both sides.');
    expect(result.summary).not.toBe('Cars are not discussed.');
  });

  it('times a short quote at its own candidate, never at an earlier place with the same words', async () => {
    reply = { status: 200, content: JSON.stringify({ mentions: [{ id: 2, quote: 'the' }], summary: 's' }) };
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', post });
    const result = await searchTopic(doc, 'cars', { finder, reranker });
    // "the" occurs first at 0 s ("about the street"); the candidate it was quoted from is at 20 s.
    expect(result.mentions.map((m) => [m.quote, m.timestampSeconds])).toEqual([['the', 20]]);
  });

  it('falls back to the offline result when the model times out', async () => {
    reply = { status: 200, content: '{"mentions": [], "summary": "late"}', delayMs: 1500 };
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', timeoutMs: 200, post });
    const started = Date.now();
    const result = await searchTopic(doc, 'cars', { finder, reranker });
    expect(Date.now() - started).toBeLessThan(1200);
    expect(result).toEqual(finder.find(doc, 'cars'));
  });

  it('falls back to the offline result on a 500', async () => {
    reply = { status: 500 };
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', post });
    const result = await searchTopic(doc, 'cars', { finder, reranker });
    expect(result).toEqual(finder.find(doc, 'cars'));
    expect(result.found).toBe(true);
  });

  it('falls back on an answer that is not JSON, or whose quotes are all invented', async () => {
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', post });
    reply = { status: 200, content: 'Sure! Cars are mentioned twice.' };
    expect(await searchTopic(doc, 'cars', { finder, reranker })).toEqual(finder.find(doc, 'cars'));
    reply = { status: 200, content: JSON.stringify({ mentions: [{ id: 1, quote: 'not in the transcript' }], summary: 'x' }) };
    expect(await searchTopic(doc, 'cars', { finder, reranker })).toEqual(finder.find(doc, 'cars'));
  });

  it('does not call the model when nothing matches offline', async () => {
    const before = requests.length;
    const reranker = createLlmReranker({ url: baseUrl, model: 'local-model', post });
    const result = await searchTopic(doc, 'volcanoes', { finder, reranker });
    expect(result.found).toBe(false);
    expect(result.mentions).toEqual([]);
    expect(requests.length).toBe(before);
  });
});
