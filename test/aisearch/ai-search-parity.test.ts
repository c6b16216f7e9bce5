import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEpisode } from '../support/catalog.js';
import { graphqlClient } from '../support/graphql.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { AiSearchMutation } from '../graphql/operations.js';
import { commuteDoc } from './search-doc.js';

let t: TestPodtext;
let gql: ReturnType<typeof graphqlClient>;
beforeAll(async () => {
  t = await startTestPodtext();
  gql = graphqlClient(t);
});
afterAll(() => t.close());

interface RestResult {
  transcript_id: string;
  topic: string;
  found: boolean;
  summary: string;
  mentions: { quote: string; context: string; timestamp_seconds: number | null; listen_url: string | null }[];
  credits: number;
  credits_remaining: number;
}

describe('AI Search over REST and GraphQL', () => {
  it('gives the same result and charges the same, each call on its own', async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: commuteDoc() });
    const rest = (await (await t.api('POST', '/ai-search/query', { key: a.key, body: { transcript_id: ep.transcriptId, topic: 'Siobhan' } })).json()) as RestResult;
    const { data, errors } = await gql(AiSearchMutation, { transcriptId: ep.transcriptId, topic: 'Siobhan' }, a.key);
    expect(errors).toBeUndefined();
    expect(data?.aiSearch).toEqual({
      transcriptId: rest.transcript_id,
      topic: rest.topic,
      found: rest.found,
      summary: rest.summary,
      mentions: rest.mentions.map((m) => ({ quote: m.quote, context: m.context, timestampSeconds: m.timestamp_seconds, listenUrl: m.listen_url })),
      credits: 1,
      creditsRemaining: rest.credits_remaining - 1,
    });
    expect(rest).toMatchObject({ found: true, credits: 1, credits_remaining: 4 });
    const entries = await t.podtext.services.db.ledgerEntry.findMany({ where: { accountId: a.accountId, kind: 'charge' } });
    expect(entries).toHaveLength(2);
  });

  it('answers the same error codes', async () => {
    const poor = await t.account({ credits: 0 });
    const rich = await t.account({ credits: 5 });
    const ready = await addEpisode(t, { doc: commuteDoc() });
    const pending = await addEpisode(t, { durationSeconds: 9300 });
    const cases: [string, { transcriptId: string; topic: string }, string][] = [
      [poor.key, { transcriptId: ready.transcriptId, topic: 'bike' }, 'insufficient_credits'],
      [rich.key, { transcriptId: pending.transcriptId, topic: 'bike' }, 'not_transcribed'],
      [rich.key, { transcriptId: 'ffffffffffffffff', topic: 'bike' }, 'not_found'],
      [rich.key, { transcriptId: ready.transcriptId, topic: '' }, 'invalid_request'],
      [rich.key, { transcriptId: 'nope', topic: 'bike' }, 'invalid_request'],
    ];
    for (const [key, input, code] of cases) {
      const rest = (await (await t.api('POST', '/ai-search/query', { key, body: { transcript_id: input.transcriptId, topic: input.topic } })).json()) as {
        error: { code: string; message: string };
      };
      const g = await gql(AiSearchMutation, input, key);
      expect(rest.error.code).toBe(code);
      expect(g.errors?.[0]?.extensions?.code).toBe(code);
      // The same words; a bad argument named as each API spells it.
      expect(g.errors?.[0]?.message).toBe(rest.error.message.replace(/^transcript_id:/, 'transcriptId:'));
    }
    const noKey = await gql(AiSearchMutation, { transcriptId: ready.transcriptId, topic: 'bike' });
    expect(noKey.errors?.[0]?.extensions?.code).toBe('unauthorized');
    expect(await t.podtext.services.db.ledgerEntry.count({ where: { accountId: { in: [poor.accountId, rich.accountId] }, kind: 'charge' } })).toBe(0);
  });
});
