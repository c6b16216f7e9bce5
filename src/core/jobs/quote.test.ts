import { describe, expect, it } from 'vitest';
import { paidSeconds, quoteEpisodes, quoteTotal } from './quote.js';
import type { ResolvedEpisode } from './resolve-episodes.js';

function episode(id: string, status: ResolvedEpisode['status'], durationSeconds: number | null): ResolvedEpisode {
  return { position: 0, transcriptId: id, guid: id, title: id, audioUrl: 'https://a/x.mp3', durationSeconds, status, known: true, publishedAt: null };
}

const base = { fast: false, unlocked: new Set<string>(), alreadyPaid: new Set<string>(), unknownDurationSeconds: 3600 };

describe('quoteEpisodes', () => {
  it('library episodes cost 1, or 0 when already unlocked', () => {
    const q = quoteEpisodes([episode('a', 'ready', 9000), episode('b', 'ready', 60)], { ...base, unlocked: new Set(['b']) });
    expect(q.map((x) => [x.kind, x.charged])).toEqual([['library', 1], ['library', 0]]);
  });

  it('transcription is per rounded hour, minimum 1, doubled on the fast lane with the premium apart', () => {
    const eps = [episode('a', 'none', 0), episode('b', 'none', 5399), episode('c', 'processing', 5400), episode('d', 'none', null)];
    expect(quoteEpisodes(eps, base).map((x) => x.charged)).toEqual([1, 1, 2, 1]);
    const fast = quoteEpisodes(eps, { ...base, fast: true });
    expect(fast.map((x) => [x.charged, x.premium])).toEqual([[2, 1], [2, 1], [4, 2], [2, 1]]);
    expect(quoteTotal(fast)).toBe(10);
  });

  it('an episode this account already paid for in a running job costs 0', () => {
    const [q] = quoteEpisodes([episode('a', 'processing', 7200)], { ...base, alreadyPaid: new Set(['a']) });
    expect(q).toMatchObject({ kind: 'transcribe', charged: 0, billedHours: 2 });
  });

  it('on the fast lane, hours already paid on the standard lane cost the premium only', () => {
    const eps = [episode('a', 'processing', 7200), episode('b', 'processing', 3 * 3600), episode('c', 'none', 3600)];
    const q = quoteEpisodes(eps, { ...base, fast: true, standardHoursPaid: new Map([['a', 2], ['b', 1]]) });
    // a: 2 h paid, 2 premium; b: 1 of 3 h paid, 2 more at the standard price and 3 premium; c: nothing paid.
    expect(q.map((x) => [x.charged, x.premium])).toEqual([[2, 2], [5, 3], [2, 1]]);
    // A standard request pays as before: what is paid is covered by alreadyPaid, not by this.
    expect(quoteEpisodes(eps, { ...base, standardHoursPaid: new Map([['a', 2]]) }).map((x) => x.charged)).toEqual([2, 3, 1]);
  });

  it('paid hours cover audio up to the rounding boundary', () => {
    expect(paidSeconds(1, 21_600)).toBe(5399);
    expect(paidSeconds(2, 21_600)).toBe(8999);
    expect(paidSeconds(10, 21_600)).toBe(21_600);
  });
});
