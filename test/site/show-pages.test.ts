import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

describe('a show page of a long feed', () => {
  let t: TestPodtext;
  const feedId = 4_242_000n;
  beforeAll(async () => {
    t = await startTestPodtext();
    const { db } = t.podtext.services;
    await db.show.create({ data: { id: feedId, title: 'Long Runner', author: 'Tester', searchName: 'long runner', searchCompact: 'longrunner', website: 'https://long.example/', language: 'he' } });
    await db.episode.createMany({
      data: Array.from({ length: 150 }, (_, i) => ({
        transcriptId: transcriptIdFor(`long-${i}`),
        showId: feedId,
        guid: `long-${i}`,
        title: `Episode number ${i}`,
        durationSeconds: 600,
        publishedAt: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000),
      })),
    });
  });
  afterAll(() => t?.close());

  const titles = (page: string) => [...page.matchAll(/>Episode number (\d+)</g)].map((m) => Number(m[1]));

  it('pages through every episode, newest first, 100 at a time', async () => {
    const first = await (await t.request(`/shows/${feedId}`)).text();
    expect(titles(first)).toEqual(Array.from({ length: 100 }, (_, i) => 149 - i));
    const older = /href="([^"]+)" rel="next">Older episodes</.exec(first)![1]!.replace(/&amp;/g, '&');
    const second = await (await t.request(older)).text();
    expect(titles(second)).toEqual(Array.from({ length: 50 }, (_, i) => 49 - i));
    expect(second).not.toContain('Older episodes');
    expect(second).toContain(`<a href="/shows/${feedId}">Newest episodes</a>`);
    // The show's website is a link; its text carries the feed's language and its own direction.
    expect(first).toContain('<a href="https://long.example/"');
    expect(first).toContain('<h1 dir="auto" lang="he">Long Runner</h1>');
  });

  it('past the oldest episode, the page says so and leads back to the newest', async () => {
    const oldest = transcriptIdFor('long-0');
    const page = await (await t.request(`/shows/${feedId}?after=${oldest}`)).text();
    expect(titles(page)).toEqual([]);
    expect(page).toContain('No older episodes.');
    expect(page).not.toContain('No episodes known yet');
    expect(page).toContain(`<a href="/shows/${feedId}">Newest episodes</a>`);
  });

  it('a cursor from elsewhere is a not-found page, not an error', async () => {
    const res = await t.request(`/shows/${feedId}?after=0123456789abcdef`);
    expect(res.status).toBe(404);
  });

  it('a cursor that is no transcript id (a NUL, another alphabet, a long string) is a not-found page too', async () => {
    for (const after of ['%00', 'abc%00def', '%C3%A9t%C3%A9', 'x'.repeat(5000)]) {
      const res = await t.request(`/shows/${feedId}?after=${after}`);
      expect(res.status, after.slice(0, 20)).toBe(404);
      expect(await res.text()).toContain('not a cursor');
    }
  });
});

describe('the home page search', () => {
  let t: TestPodtext;
  beforeAll(async () => {
    t = await startTestPodtext();
    await t.podtext.services.db.show.create({ data: { id: 4_243_000n, title: 'Quiet Harbour', author: 'Tester', searchName: 'quiet harbour', searchCompact: 'quietharbour' } });
  });
  afterAll(() => t?.close());

  it('takes control characters (a NUL, a bell) in the query for spaces instead of echoing them into the page, and searches the rest', async () => {
    const res = await t.request('/?q=%00Quiet%07%20Harbour');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    expect(page).toContain('value="Quiet Harbour"');
    expect(page).toContain('/shows/4243000');
  });
});
