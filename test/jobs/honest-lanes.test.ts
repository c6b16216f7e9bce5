import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from './support/audio-server.js';
import { postRequest } from './support/jobs-api.js';

// The default configuration: no engine faster than the standard one, so no fast lane to sell.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

const episode = () => ({ guid: newGuid('lane'), url: 'https://media.example/a.mp3', secs: 5400 });

async function nothingCharged(accountId: string, credits: number) {
  const { db } = t.podtext.services;
  expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).credits).toBe(credits);
  expect(await db.job.count({ where: { accountId } })).toBe(0);
  expect(await db.ledgerEntry.count({ where: { accountId, kind: 'charge' } })).toBe(0);
}

describe('without a fast lane', () => {
  it('fast: true is a 400 fast_lane_unavailable, real or dry run, and nothing is charged or queued', async () => {
    const a = await t.account({ credits: 10 });
    const tasks = await t.podtext.services.db.transcriptionTask.count();
    for (const dry_run of [false, true]) {
      const r = await postRequest(t, a.key, { episodes: [episode()], fast: true, dry_run });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('fast_lane_unavailable');
      expect(r.body.error.message).toMatch(/no fast lane/);
    }
    await nothingCharged(a.accountId, 10);
    expect(await t.podtext.services.db.transcriptionTask.count()).toBe(tasks);
  });

  it('a dry run says the fast lane is not available; the standard lane still quotes', async () => {
    const a = await t.account({ credits: 10 });
    const r = await postRequest(t, a.key, { episodes: [episode()], dry_run: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ fast_lane_available: false, fast: false, credits_required: 2, promise_seconds: null });
  });

  it('GraphQL answers the same code, nothing charged', async () => {
    const a = await t.account({ credits: 10 });
    const r = await t.gql(
      'mutation($input: TranscriptionRequestInput!) { requestTranscription(input: $input) { creditsCharged fastLaneAvailable } }',
      { input: { episodes: [episode()], fast: true } },
      a.key,
    );
    expect(r.body.errors?.[0]?.extensions?.code).toBe('fast_lane_unavailable');
    await nothingCharged(a.accountId, 10);
    const quote = await t.gql('mutation($input: TranscriptionRequestInput!) { requestTranscription(input: $input) { fastLaneAvailable } }', { input: { episodes: [episode()], dryRun: true } }, a.key);
    expect(quote.body.data).toEqual({ requestTranscription: { fastLaneAvailable: false } });
  });
});
