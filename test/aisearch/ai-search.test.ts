import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEpisode } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { commuteDoc, docText, untimedDoc } from './search-doc.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

interface Mention {
  quote: string;
  context: string;
  timestamp_seconds: number | null;
  listen_url: string | null;
}
interface Result {
  transcript_id: string;
  topic: string;
  found: boolean;
  summary: string;
  mentions: Mention[];
  credits: number;
  credits_remaining: number;
}
interface ErrorBody {
  error: { code: string; message: string };
}

const query = (key: string, body: unknown) => t.api('POST', '/ai-search/query', { key, body });

async function ledgerOf(accountId: string) {
  return t.podtext.services.db.ledgerEntry.findMany({ where: { accountId, kind: { not: 'grant' } }, orderBy: { id: 'asc' } });
}

async function balance(key: string): Promise<number> {
  return ((await (await t.api('GET', '/me', { key })).json()) as { credits: number }).credits;
}

describe('AI Search charges', () => {
  it('charges 1 credit for a result, with verbatim quotes and listen links; no unlock needed', async () => {
    const a = await t.account({ credits: 3 });
    const doc = commuteDoc();
    const ep = await addEpisode(t, { doc });
    const res = await query(a.key, { transcript_id: ep.transcriptId, topic: '  bicycles ' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const body = (await res.json()) as Result;
    expect(body).toMatchObject({ transcript_id: ep.transcriptId, topic: 'bicycles', found: true, credits: 1, credits_remaining: 2 });
    expect(body.mentions.map((m) => m.quote)).toEqual([
      'Mostly by bike.',
      'Even so, the bicycle counts on the river bridge went up again this month.',
    ]);
    const text = docText(doc);
    for (const m of body.mentions) {
      expect(text).toContain(m.quote);
      expect(m.timestamp_seconds).not.toBeNull();
      expect(m.listen_url).toBe(`http://podtext.test/t/${ep.transcriptId}#t=${Math.floor(m.timestamp_seconds!)}`);
    }
    // "Mostly" is the first word of segment 3: its recognised start, kept to the millisecond.
    expect(body.mentions[0]!.timestamp_seconds).toBe(doc.segments[3]!.words[0]!.s);
    expect(body.summary).toContain('2 mentions of "bicycles"');

    const entries = await ledgerOf(a.accountId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'charge', amount: -1, balanceAfter: 2 });
    expect(entries[0]!.reference).toMatch(/^aisearch:[0-9a-f-]{36}$/);
    expect(await balance(a.key)).toBe(2);
    expect(await t.podtext.services.db.unlock.count({ where: { accountId: a.accountId } })).toBe(0);
  });

  it('charges a query that finds nothing too, and each query separately', async () => {
    const a = await t.account({ credits: 2 });
    const ep = await addEpisode(t, { doc: commuteDoc() });
    const none = (await (await query(a.key, { transcript_id: ep.transcriptId, topic: 'volcanoes' })).json()) as Result;
    expect(none).toMatchObject({ found: false, mentions: [], credits: 1, credits_remaining: 1 });
    expect(none.summary).toMatch(/^No mention of "volcanoes"/);
    const again = (await (await query(a.key, { transcript_id: ep.transcriptId, topic: 'Siobhan Kearney' })).json()) as Result;
    expect(again).toMatchObject({ found: true, credits: 1, credits_remaining: 0 });
    expect((await ledgerOf(a.accountId)).map((e) => e.kind)).toEqual(['charge', 'charge']);
  });

  it('402 at balance 0 charges nothing', async () => {
    const a = await t.account({ credits: 0 });
    const ep = await addEpisode(t, { doc: commuteDoc() });
    const res = await query(a.key, { transcript_id: ep.transcriptId, topic: 'bike' });
    expect(res.status).toBe(402);
    expect(((await res.json()) as ErrorBody).error.code).toBe('insufficient_credits');
    expect(await ledgerOf(a.accountId)).toEqual([]);
  });

  it('409 quotes transcription by the price table plus the query: 2 h 35 min is 3 + 1 = 4', async () => {
    const a = await t.account({ credits: 10 });
    const ep = await addEpisode(t, { durationSeconds: 2 * 3600 + 35 * 60 });
    const res = await query(a.key, { transcript_id: ep.transcriptId, topic: 'bike' });
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as ErrorBody;
    expect(error.code).toBe('not_transcribed');
    expect(error.message).toContain('4 credits in all: 3 to transcribe it (2 hours 35 minutes of audio, billed as 3 hours');
    expect(error.message).toContain('1 for this query');
    expect(await ledgerOf(a.accountId)).toEqual([]);
    // The published description promises only what the body carries: the figures are in the message.
    expect(Object.keys(error)).toEqual(['code', 'message']);
    const doc = (await (await t.request('/openapi.json')).json()) as { paths: Record<string, { post: { responses: Record<string, { description: string }> } }> };
    expect(doc.paths['/ai-search/query']!.post.responses['409']!.description).not.toContain('details');
  });

  it('409 with an unknown length says so and quotes the minimum', async () => {
    const a = await t.account({ credits: 10 });
    const ep = await addEpisode(t);
    await t.podtext.services.db.episode.update({ where: { transcriptId: ep.transcriptId }, data: { durationSeconds: null } });
    const { error } = (await (await query(a.key, { transcript_id: ep.transcriptId, topic: 'bike' })).json()) as ErrorBody;
    expect(error.code).toBe('not_transcribed');
    expect(error.message).toContain('2 credits in all: 1 to transcribe it (its length is not known yet, so this is the minimum');
  });

  it('404 for an unknown episode; 400 naming the field for bad input; nothing charged', async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: commuteDoc() });
    const missing = await query(a.key, { transcript_id: '0123456789abcdef', topic: 'bike' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorBody).error.code).toBe('not_found');
    const cases: [unknown, string][] = [
      [{ transcript_id: 'ABCDEF0123456789', topic: 'bike' }, 'transcript_id:'],
      [{ transcript_id: ep.transcriptId, topic: '   ' }, 'topic:'],
      [{ transcript_id: ep.transcriptId, topic: 'x'.repeat(201) }, 'topic:'],
      [{ transcript_id: ep.transcriptId }, 'topic:'],
      // Nothing a transcript's words could match: refused, not charged.
      [{ transcript_id: ep.transcriptId, topic: '🎙🎙 ?!' }, 'topic: has no letters or digits'],
      // Only function words: nothing to find, so no answer saying it "does not occur" for a credit.
      [{ transcript_id: ep.transcriptId, topic: 'the' }, 'topic: has no word that can be searched for'],
      [{ transcript_id: ep.transcriptId, topic: 'what about the' }, 'topic: has no word that can be searched for'],
      // A name of single letters and signs: told why, not that its words are "too common".
      [{ transcript_id: ep.transcriptId, topic: 'C++' }, 'topic: has no word that can be searched for: words too common ("the", "and"…) and single letters'],
    ];
    for (const [body, prefix] of cases) {
      const res = await query(a.key, body);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as ErrorBody;
      expect(error.code).toBe('invalid_request');
      expect(error.message.startsWith(prefix)).toBe(true);
    }
    expect((await query(a.key, { transcript_id: ep.transcriptId, topic: `${'x'.repeat(200)}  ` })).status).toBe(200);
    expect((await ledgerOf(a.accountId)).map((e) => e.kind)).toEqual(['charge']);
  });

  it('charges nothing when the search fails (a corrupt stored document): no refund to wait for, whatever cuts the work off', async () => {
    const a = await t.account({ credits: 2 });
    const ep = await addEpisode(t, { doc: commuteDoc() });
    // What a broken writer or a bad manual edit leaves behind: the row is there, its document is not a transcript.
    await t.podtext.services.db.transcript.update({ where: { transcriptId: ep.transcriptId }, data: { doc: { segments: 'lost' } } });
    const res = await query(a.key, { transcript_id: ep.transcriptId, topic: 'bike' });
    expect(res.status).toBe(500);
    const { error } = (await res.json()) as ErrorBody;
    expect(error.code).toBe('internal');
    expect(error.message).toContain('nothing was charged for this query');
    await query(a.key, { transcript_id: ep.transcriptId, topic: 'car' });
    expect(await ledgerOf(a.accountId)).toEqual([]);
    expect(await balance(a.key)).toBe(2);
  });

  it('a balance spent by another call while the search ran answers 402 and charges nothing', async () => {
    const a = await t.account({ credits: 1 });
    const ep = await addEpisode(t, { doc: commuteDoc() });
    const [x, y] = await Promise.all([
      query(a.key, { transcript_id: ep.transcriptId, topic: 'bike' }),
      query(a.key, { transcript_id: ep.transcriptId, topic: 'car' }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 402]);
    expect((await ledgerOf(a.accountId)).map((e) => [e.kind, e.amount, e.balanceAfter])).toEqual([['charge', -1, 0]]);
    expect(await balance(a.key)).toBe(0);
  });

  it('gives mentions of an untimed transcript neither a time nor a listen link', async () => {
    const a = await t.account({ credits: 1 });
    const doc = untimedDoc();
    const ep = await addEpisode(t, { doc });
    const body = (await (await query(a.key, { transcript_id: ep.transcriptId, topic: 'weather' })).json()) as Result;
    expect(body.found).toBe(true);
    expect(body.mentions).toEqual([
      { quote: 'The weather has been awful all week, rain every single morning.', context: expect.any(String), timestamp_seconds: null, listen_url: null },
    ]);
    expect(docText(doc)).toContain(body.mentions[0]!.quote);
  });
});
