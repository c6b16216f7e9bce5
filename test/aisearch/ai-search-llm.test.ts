import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpAiSearch } from '../../src/core/aisearch/ai-search-setup.js';
import { type LocalServer, startLocalServer } from '../../src/infra/outbound/local-test-server.js';
import { OutboundError } from '../../src/infra/outbound/outbound-error.js';
import { addEpisode } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { commuteDoc, docText } from './search-doc.js';

/** A candidate as the prompt lists it: `[id] (mm:ss) quote: "…"`. */
interface PromptCandidate {
  id: number;
  quote: string;
}

/** What the stand-in model does with one request. */
type Behaviour = { answer: (candidates: PromptCandidate[]) => string; status?: number; delayMs?: number };

let behaviour: Behaviour = { answer: () => '{}' };
const seen: { authorization?: string; body: { model: string; messages: { role: string; content: string }[] } }[] = [];

function candidatesOf(prompt: string): PromptCandidate[] {
  return [...prompt.matchAll(/^\[(\d+)\][^\n]*? quote: (".*")$/gm)].map((m) => ({ id: Number(m[1]), quote: JSON.parse(m[2]!) as string }));
}

/** The documented chat-completions response around `content`. */
function completion(content: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'local-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 300, completion_tokens: 60, total_tokens: 360 },
  };
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  req.on('end', () => {
    const body = JSON.parse(raw) as (typeof seen)[number]['body'];
    seen.push({ authorization: req.headers.authorization, body });
    const { answer, status = 200, delayMs = 0 } = behaviour;
    setTimeout(() => {
      if (res.destroyed) return;
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(answer(candidatesOf(body.messages[1]!.content)))));
    }, delayMs);
  });
}

let model: LocalServer;
let t: TestPodtext;
beforeAll(async () => {
  model = await startLocalServer(handle);
  t = await startTestPodtext({ env: { AI_URL: model.url('/v1'), AI_MODEL: 'local-model', AI_API_KEY: 'k-test' } });
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => {
  seen.length = 0;
});

interface Result {
  found: boolean;
  summary: string;
  mentions: { quote: string; timestamp_seconds: number | null; listen_url: string | null }[];
  credits: number;
  credits_remaining: number;
}

const offlineQuotes = ['Mostly by bike.', 'Even so, the bicycle counts on the river bridge went up again this month.'];

async function setUp(credits = 3) {
  const a = await t.account({ credits });
  const doc = commuteDoc();
  const ep = await addEpisode(t, { doc });
  return { a, doc, ep };
}

async function kinds(accountId: string): Promise<string[]> {
  const rows = await t.podtext.services.db.ledgerEntry.findMany({ where: { accountId, kind: { not: 'grant' } }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.kind);
}

describe('AI Search with a configured model', () => {
  it('takes the model\'s choice, shortened quotes and summary, each quote checked verbatim', async () => {
    behaviour = {
      answer: (cs) =>
        JSON.stringify({
          mentions: cs.map((c) => ({ id: c.id, quote: c.quote.split(' ').slice(0, 4).join(' ') })).reverse(),
          summary: 'Marcus now rides a bike to work, and bicycle counts on the bridge are rising.',
        }),
    };
    const { a, doc, ep } = await setUp();
    const res = await t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'bicycles' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Result;
    expect(body.summary).toBe('Marcus now rides a bike to work, and bicycle counts on the bridge are rising.');
    expect(body.mentions.map((m) => m.quote)).toEqual(['Mostly by bike.', 'Even so, the bicycle']);
    for (const m of body.mentions) {
      expect(docText(doc)).toContain(m.quote);
      expect(m.listen_url).toBe(`http://podtext.test/t/${ep.transcriptId}#t=${Math.floor(m.timestamp_seconds!)}`);
    }
    expect(body).toMatchObject({ credits: 1, credits_remaining: 2 });
    expect(await kinds(a.accountId)).toEqual(['charge']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.authorization).toBe('Bearer k-test');
    expect(seen[0]!.body.model).toBe('local-model');
  });

  it('drops a quote the model invented and keeps the verbatim one', async () => {
    behaviour = {
      answer: (cs) =>
        JSON.stringify({
          mentions: [
            { id: cs[0]!.id, quote: 'Cycling is banned in this city.' },
            { id: cs[1]!.id, quote: 'the bicycle counts on the river bridge' },
          ],
          summary: 'Bicycles come up twice.',
        }),
    };
    const { a, doc, ep } = await setUp();
    const body = (await (await t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'bicycles' } })).json()) as Result;
    expect(body.mentions.map((m) => m.quote)).toEqual(['the bicycle counts on the river bridge']);
    expect(docText(doc)).toContain(body.mentions[0]!.quote);
    expect(await kinds(a.accountId)).toEqual(['charge']);
  });

  it.each([
    ['an error status', { status: 500, answer: () => '' }],
    ['an answer that is not JSON', { answer: () => 'Sure! Bikes are mentioned twice.' }],
    ['only invented quotes', { answer: (cs: PromptCandidate[]) => JSON.stringify({ mentions: [{ id: cs[0]!.id, quote: 'not said' }], summary: 'x' }) }],
  ])('answers offline after %s: still a success, charged once', async (_name, b) => {
    behaviour = b as Behaviour;
    const { a, ep } = await setUp();
    const body = (await (await t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'bicycles' } })).json()) as Result;
    expect(body.mentions.map((m) => m.quote)).toEqual(offlineQuotes);
    expect(body.summary).toContain('2 mentions of "bicycles"');
    expect(body).toMatchObject({ found: true, credits: 1, credits_remaining: 2 });
    expect(seen).toHaveLength(1);
    expect(await kinds(a.accountId)).toEqual(['charge']);
  });

  it('answers offline when the model is too slow: still a success, charged once', async () => {
    behaviour = { answer: () => JSON.stringify({ mentions: [], summary: 'late' }), delayMs: 2000 };
    const { db, transcripts, links, accounts } = t.podtext.services;
    // The service as boot builds it, with a short model time limit so the test does not wait 8 s.
    const aiSearch = setUpAiSearch({ db, transcripts, links, onAccountChanged: accounts.changed, ai: { url: model.url('/v1'), model: 'local-model' }, aiTimeoutMs: 300 });
    const { a, ep } = await setUp();
    const actor = { accountId: a.accountId, keyId: 'test', plan: 'free' as const };
    const started = Date.now();
    const result = await aiSearch.query(actor, { transcriptId: ep.transcriptId, topic: 'bicycles' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.mentions.map((m) => m.quote)).toEqual(offlineQuotes);
    expect(result).toMatchObject({ found: true, credits: 1, creditsRemaining: 2 });
    expect(await kinds(a.accountId)).toEqual(['charge']);
  });

  it('asks the model only for the queries a balance can pay: 1 credit and ten queries at once make one paid model call', async () => {
    behaviour = { answer: () => JSON.stringify({ mentions: [], summary: 'slow' }), delayMs: 300 };
    const { a, ep } = await setUp(1);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'bicycles' } }).then((r) => r.status)),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(1);
    expect(answers.filter((s) => s === 402)).toHaveLength(9);
    expect(seen).toHaveLength(1);
    expect(await kinds(a.accountId)).toEqual(['charge']);
    // Once it is charged, the key's next query is refused for the balance itself, as before.
    const after = await t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'bicycles' } });
    expect(after.status).toBe(402);
  });

  it('does not ask the model when nothing matches offline', async () => {
    behaviour = { answer: () => '{}' };
    const { a, ep } = await setUp();
    const body = (await (await t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'volcanoes' } })).json()) as Result;
    expect(body).toMatchObject({ found: false, mentions: [], credits: 1 });
    expect(seen).toHaveLength(0);
  });

  it('reaches the private model address only through its own client', async () => {
    // The shared client (feeds, audio, webhooks) still refuses the loopback endpoint the operator configured for AI.
    const refused = await t.podtext.services.outbound.request(model.url('/v1/chat/completions'), { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutboundError);
    expect((refused as OutboundError).code).toBe('blocked_address');
    expect(seen).toHaveLength(0);
  });
});
