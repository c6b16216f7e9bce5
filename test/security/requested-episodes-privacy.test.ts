import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { REQUESTED_SHOW_ID } from '../../src/core/jobs/resolve-episodes.js';
import { inTransaction } from '../../src/core/transaction.js';
import { saveTranscript } from '../../src/core/transcripts/transcript-store.js';
import { sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// An episode requested by audio URL (one the index does not list) is one
// account's business: its guid, title and (private) audio address are not
// browsable by others, and the address is shown to no other reader.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

const feedId = String(REQUESTED_SHOW_ID);
const guid = 'private-guid-7f3a91';
const title = 'Board meeting, confidential';
const token = 'tok_s3cr3t_0123456789';
const audioUrl = `https://media.example/recordings/${guid}.mp3?token=${token}`;

function noLeak(text: string): void {
  expect(text).not.toContain(guid);
  expect(text).not.toContain(title);
  expect(text).not.toContain(token);
}

describe('episodes requested by audio URL', () => {
  let other: { key: string };
  let owner: { key: string };
  beforeAll(async () => {
    owner = await t.account({ credits: 10 });
    const res = await t.api('POST', '/requests', { key: owner.key, body: { episodes: [{ guid, url: audioUrl, title, secs: 600 }] } });
    expect(res.status).toBe(200);
    other = await t.account({ credits: 10 });
  });

  it('the shared show that holds them cannot be listed, by REST or GraphQL', async () => {
    for (const path of [`/shows/${feedId}`, `/shows/${feedId}/episodes`, `/shows/${feedId}/episodes?max=5`, `/shows/${feedId}/episodes?q=board`]) {
      const res = await t.api('GET', path, { key: other.key });
      const body = await res.text();
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      noLeak(body);
    }
    const gql = await t.gql('query ($id: Float!) { episodes(feedId: $id, first: 10) { edges { node { title audioUrl } } } }', { id: Number(feedId) }, other.key);
    noLeak(JSON.stringify(gql.body));
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('the episode names no show it cannot be found in: show null in its info, no show link on its page', async () => {
    const transcriptId = transcriptIdFor(guid);
    const info = (await (await t.api('GET', `/episodes/${transcriptId}`, { key: owner.key })).json()) as { show: unknown };
    expect(info.show).toBeNull();
    const gql = await t.gql<{ episode: { show: unknown } }>('query ($id: String!) { episode(transcriptId: $id) { show { feedId } } }', { id: transcriptId }, owner.key);
    expect(gql.body.data?.episode.show).toBeNull();
    const page = await (await t.request(`/t/${transcriptId}`)).text();
    expect(page).not.toContain(`/shows/${feedId}`);
  });

  it('its audio address is shown to no one else, on the transcript or on the public episode page', async () => {
    const transcriptId = transcriptIdFor(guid);
    await inTransaction(t.podtext.services.db, (tx) => saveTranscript(tx, { transcriptId, doc: sampleDoc(), source: 'asr' }));
    expect((await t.api('POST', '/unlock', { key: other.key, body: { transcript: transcriptId } })).status).toBe(200);
    const json = (await (await t.api('GET', `/transcripts/${transcriptId}`, { key: other.key })).json()) as { audio_url: string | null };
    expect(json.audio_url).toBeNull();
    const gql = await t.gql<{ transcript: { audioUrl: string | null } }>('query ($id: String!) { transcript(transcriptId: $id) { audioUrl } }', { id: transcriptId }, other.key);
    expect(gql.body.data?.transcript.audioUrl).toBeNull();
    const page = await t.request(`/t/${transcriptId}`);
    expect(await page.text()).not.toContain(token);
  });

  it('the account that supplied the address reads it back, on REST and GraphQL; a later request naming the guid does not', async () => {
    const transcriptId = transcriptIdFor(guid);
    expect((await t.api('POST', '/unlock', { key: owner.key, body: { transcript: transcriptId } })).status).toBe(200);
    for (const query of ['', '?timestamps=1']) {
      const json = (await (await t.api('GET', `/transcripts/${transcriptId}${query}`, { key: owner.key })).json()) as { audio_url: string | null };
      expect(json.audio_url).toBe(audioUrl);
    }
    const gql = await t.gql<{ transcript: { audioUrl: string | null } }>('query ($id: String!) { transcript(transcriptId: $id) { audioUrl } }', { id: transcriptId }, owner.key);
    expect(gql.body.data?.transcript.audioUrl).toBe(audioUrl);
    // Another account asking for the same guid (with its own URL) joins the episode; the address stays the first one's.
    expect((await t.api('POST', '/requests', { key: other.key, body: { episodes: [{ guid, url: 'https://other.example/mine.mp3', secs: 600 }] } })).status).toBe(200);
    const theirs = (await (await t.api('GET', `/transcripts/${transcriptId}`, { key: other.key })).json()) as { audio_url: string | null };
    expect(theirs.audio_url).toBeNull();
    // On the website too: the supplier's signed-in page plays it (and seeks by word); another account's does not.
    const pageOf = async (key: string) => {
      const signin = await t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key }).toString(), redirect: 'manual' });
      const cookie = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
      return (await t.request(`/t/${transcriptId}`, { headers: { cookie } })).text();
    };
    expect(await pageOf(owner.key)).toContain(`<audio id="player" controls preload="metadata" src="${audioUrl.replace('&', '&amp;')}"`);
    const othersPage = await pageOf(other.key);
    expect(othersPage).not.toContain(token);
    expect(othersPage).toContain('No audio address for this episode.');
  });

  it('text, SRT and VTT carry no address: the same bytes under the same ETag for both accounts; JSON differs', async () => {
    const transcriptId = transcriptIdFor(guid);
    const read = async (key: string, format: string) => {
      const res = await t.api('GET', `/transcripts/${transcriptId}?format=${format}`, { key });
      return { etag: res.headers.get('etag'), body: await res.text() };
    };
    for (const format of ['text', 'srt', 'vtt']) expect(await read(owner.key, format), format).toEqual(await read(other.key, format));
    const [mine, theirs] = [await read(owner.key, 'json'), await read(other.key, 'json')];
    expect(mine.body).toContain(token);
    expect(mine.etag).not.toBe(theirs.etag);
  });
});
